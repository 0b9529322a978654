import Foundation
import Tally
import TallyTestSupport
import TallyTesting
import Testing

/// `withExhaustiveCheck`, the engine behind the trait: what it reports, where, and what it leaves alone.
struct ExhaustiveCheckTests {
    @Test func everythingAccountedForReportsNothing() {
        withExhaustiveCheck {
            let spy = AnalyticsSpy()
            spy.screen("Login")
            spy.track("login_tapped", ["action": "tap"])
            spy.expectTracked(.screen("Login"))
            spy.expectTracked(Event("login_tapped", ["action": "tap"]))
        }
    }

    @Test func anEventNoExpectationAccountedForFailsAtTheLineThatCreatedTheSpy() {
        let line = #line + 9
        expectOneIssue(
            containing: [
                "Exhaustive mode: 1 event recorded by the AnalyticsSpy created at TallyTestingTests/ExhaustiveCheckTests.swift:\(line) was not accounted for by any expectation:",
                #"  [1] track login_tapped {"action":"tap"}"#, "Recorded (2):", "  [0] screen Login",
                "`isExhaustive = false` on this AnalyticsSpy, `.exhaustive(false)` or `withExhaustiveCheck(false)`",
            ], atLine: line
        ) {
            withExhaustiveCheck {
                let spy = AnalyticsSpy()
                spy.screen("Login")
                spy.track("login_tapped", ["action": "tap"])
                spy.expectTracked(.screen("Login"))
            }
        }
    }

    @Test func anEventTrackedTwiceWhereItIsExpectedOnceFails() {
        let line = #line + 5
        expectOneIssue(
            containing: ["1 event recorded by the AnalyticsSpy", "  [1] track menu_item_ordered"], atLine: line
        ) {
            withExhaustiveCheck {
                let spy = AnalyticsSpy()
                spy.track("menu_item_ordered", ["item_name": "Pizza"])
                spy.track("menu_item_ordered", ["item_name": "Pizza"])
                spy.expectTracked(.named("menu_item_ordered", containing: ["item_name": "Pizza"]))
            }
        }
    }

    @Test func aCallMadeTwiceWhereExpectCalledExpectsItOnceFails() {
        let line = #line + 8
        expectOneIssue(
            containing: [
                "Exhaustive mode: 1 call recorded by the CallRecorder created at TallyTestingTests/ExhaustiveCheckTests.swift:\(line) was not accounted for by any expectation:",
                #"  [1] logEvent(named: "test", properties: nil)"#, "Recorded calls (2):",
            ], atLine: line
        ) {
            withExhaustiveCheck {
                let sdk = CallRecorder()
                sdk.record("logEvent(named:properties:)", arguments: "test", nil)
                sdk.record("logEvent(named:properties:)", arguments: "test", nil)
                sdk.expectCalled("logEvent(named:properties:)", with: "test", nil)
            }
        }
    }

    @Test func aRecorderCreatedInAnotherFileIsReportedAtTheCheck() {
        let line = #line + 7
        expectOneIssue(
            containing: [
                "1 call recorded by the CallRecorder created at TallyTestingTests/CallRecordingFixtures.swift:"
            ],
            atLine: line
        ) {
            withExhaustiveCheck {
                let hippo = CallRecordingFixtures.HippoAnalyticsClientSpy()
                hippo.logEvent(named: "test", properties: nil)
            }
        }
    }

    @Test func eachRecorderIsReportedOnceInTheOrderTheyWereCreated() {
        let issues = IssueLog()
        withKnownIssue {
            withExhaustiveCheck {
                let first = AnalyticsSpy()
                let second = CallRecorder()
                let third = AnalyticsSpy()
                third.track("c")
                second.record("b()")
                first.track("a")
                first.track("a")
            }
        } matching: { issue in
            issues.append(issue)
            return true
        }
        let messages = issues.all.map { $0.comments.map(\.rawValue).joined() }
        #expect(messages.count == 3)
        #expect(messages.first?.contains("2 events recorded by the AnalyticsSpy") == true)
        #expect(messages.dropFirst().first?.contains("1 call recorded by the CallRecorder") == true)
        #expect(messages.last?.contains("  [0] track c") == true)
    }

    @Test func aRecorderOptsOutWithIsExhaustive() {
        withExhaustiveCheck {
            let spy = AnalyticsSpy()
            spy.isExhaustive = false
            spy.track("anything")
            let copy = spy
            #expect(!copy.isExhaustive)  // shared by every copy
            let calls = CallRecorder()
            calls.isExhaustive = false
            calls.record("anything()")
        }
    }

    @Test func aNestedCheckThatIsOffLeavesItsRecordersAlone() {
        withExhaustiveCheck {
            withExhaustiveCheck(false) {
                AnalyticsSpy().track("unchecked")
            }
        }
    }

    @Test func aRecorderCreatedBeforeTheCheckIsNotChecked() {
        let spy = AnalyticsSpy()
        withExhaustiveCheck {
            spy.track("before the check's recorders")
        }
    }

    @Test func aBodyThatThrowsIsNotChecked() {
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try withExhaustiveCheck {
                AnalyticsSpy().track("left over")
                throw Stop()
            }
        }
    }

    @Test func manyUnaccountedEventsAreNamedUpToALimit() {
        expectOneIssue(containing: ["25 events recorded", "  [19] track e19", "  … and 5 more"], atLine: #line + 2) {
            withExhaustiveCheck {
                let spy = AnalyticsSpy()
                for index in 0..<25 { spy.track("e\(index)") }
            }
        }
    }
}

/// Recorders that fill up on other threads, tasks and processes.
struct ExhaustiveCheckConcurrencyTests {
    @Test func aSpyCreatedInAChildTaskOrATaskIsChecked() async {
        let issues = IssueLog()
        await withKnownIssue {
            await withExhaustiveCheck {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { AnalyticsSpy().track("in a child task") }
                }
                await Task { AnalyticsSpy().track("in a task") }.value
            }
        } matching: { issue in
            issues.append(issue)
            return true
        }
        #expect(issues.all.count == 2)
    }

    @Test func aSpyCreatedInADetachedTaskEscapesTheCheck() async {
        await withExhaustiveCheck {
            await Task.detached { AnalyticsSpy().track("detached") }.value
        }
    }

    @Test func eventsAClientDeliversOnItsOwnThreadAreChecked() async {
        let line = #line + 5
        await expectOneIssue(
            containing: ["1 event recorded by the InMemoryDestination", "  [1] track checkout_started"], atLine: line
        ) {
            await withExhaustiveCheck {
                let memory = InMemoryDestination()
                let analytics = AnalyticsClient(destinations: [memory])
                analytics.screen("Cart")
                analytics.track("checkout_started")
                await analytics.flush()
                memory.expectTracked(.screen("Cart"))
            }
        }
    }

    @Test func aRecordingIsReadOnceMoreWhenTheTestEnds() async throws {
        let folder = try TemporaryFolder()
        let file = folder.file("app.jsonl")
        let destination = RecordingDestination(sink: try FileRecordingSink(url: file), source: "app")
        let line = #line + 5
        await expectOneIssue(
            containing: ["1 event recorded by the RecordingReader", "  [1] track login_tapped"], atLine: line
        ) {
            await withExhaustiveCheck {
                let recording = RecordingReader(url: file)
                let app = AnalyticsClient(destinations: [destination])
                app.screen("Login")
                await app.flush()
                recording.expectTracked(.screen("Login"))
                app.track("login_tapped")
                await app.shutdown()  // written after the last expectation read the file
            }
        }
    }
}
