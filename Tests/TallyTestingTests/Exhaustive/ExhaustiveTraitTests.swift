import Tally
import TallyTesting
import Testing

/// The `.exhaustive` trait itself: each of these tests is checked when it ends, and
/// `.expectingOneIssue`, listed first, catches what the check reports.
///
/// In a trait's arguments `#line` is the line of the declaration (`func`, `struct`), and a test's own
/// source location is the line of its `@Test`.
struct ExhaustiveTraitTests {
    @Test(.exhaustive) func everythingAccountedForPasses() {
        let spy = AnalyticsSpy()
        spy.track("login_tapped", ["action": "tap"])
        spy.expectTracked(Event("login_tapped", ["action": "tap"]))
    }

    @Test(
        .expectingOneIssue(
            containing: [
                "Exhaustive mode: 1 event recorded by the AnalyticsSpy created at TallyTestingTests/ExhaustiveTraitTests.swift:\(#line + 1) was not accounted for by any expectation:",
                "  [1] track login_tapped",
            ], atLine: #line + 1),
        .exhaustive
    )
    func anEventLeftOverFailsTheTestAtTheLineThatCreatedTheSpy() {
        let spy = AnalyticsSpy()
        spy.track("login_tapped")
        spy.track("login_tapped")
        spy.expectTracked(.named("login_tapped"))
    }

    @Test(
        .expectingOneIssue(
            containing: [
                "1 call recorded by the CallRecorder created at TallyTestingTests/CallRecordingFixtures.swift:"
            ],
            atLine: #line - 8),
        .exhaustive
    )
    func aSpyWhoseRecorderIsCreatedInAnotherFileFailsTheTestAtTheTest() {
        let hippo = CallRecordingFixtures.HippoAnalyticsClientSpy()
        hippo.logEvent(named: "test", properties: nil)
        hippo.logEvent(named: "test", properties: nil)
        hippo.calls.expectCalled("logEvent(named:properties:)")
    }

    @Test(
        .expectingOneIssue(containing: ["1 event recorded by the InMemoryDestination"], atLine: #line + 1),
        .exhaustive
    )
    func anAsyncTestIsCheckedAfterItsLastAwait() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.track("checkout_started")
        await analytics.flush()
    }

    @Test(
        .expectingOneIssue(
            containing: ["1 event recorded by the AnalyticsSpy", "  [0] track case"], atLine: #line + 1),
        .exhaustive, arguments: [1, 2]
    )
    func eachCaseOfAParameterizedTestIsCheckedOnItsOwn(value: Int) {
        AnalyticsSpy().track("case", ["value": .int(value)])
    }
}

/// A suite's `.exhaustive` reaches every test in it, its initializer, and nested suites; a test's own
/// `.exhaustive(false)` turns it off.
@Suite(.exhaustive)
struct ExhaustiveSuiteTests {
    let spy = AnalyticsSpy()

    @Test func aSpyTheSuiteCreatesIsAccountedFor() {
        spy.screen("Menu")
        spy.expectTracked(.screen("Menu"))
    }

    @Test(.exhaustive(false)) func aTestOptsOutOfItsSuite() {
        spy.screen("Menu")
        AnalyticsSpy().track("nobody expects this")
        CallRecorder().record("nor this()")
    }

    @Suite struct Nested {
        @Test(.exhaustive(false)) func theInnermostSettingWins() {
            AnalyticsSpy().track("nobody expects this")
        }
    }
}

/// The suite's trait is inherited: `.expectingOneIssue` on an enclosing suite is the outer scope.
@Suite(
    .expectingOneIssue(
        containing: [
            "1 event recorded by the AnalyticsSpy created at TallyTestingTests/ExhaustiveTraitTests.swift:\(#line + 3)",
            "  [0] track left_over",
        ], atLine: #line + 3))
struct ExhaustiveSuiteInheritanceTests {
    @Suite(.exhaustive)
    struct Inner {
        let spy = AnalyticsSpy()

        @Test func aTestOfAnExhaustiveSuiteIsChecked() {
            spy.track("left_over")
        }
    }
}
