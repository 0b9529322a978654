import Foundation
import Tally
import TallyTesting
import Testing

private typealias Fixtures = CallRecordingFixtures

/// Every expectation passes when it should and, when it should not, reports exactly one issue at the
/// caller's line whose message says what was expected, what was recorded, and how the closest call differs.
@Suite struct CallRecorderExpectationTests: CallRecordingSuite {
    /// The seed 003 test: EventLogger forwards name and properties to Hippo unchanged.
    private func loggedTestEvent() -> Fixtures.HippoAnalyticsClientSpy {
        let hippo = Fixtures.HippoAnalyticsClientSpy()
        Fixtures.EventLogger(hippoAnalyticsClient: hippo).log(name: "test", properties: ["key": "value"])
        return hippo
    }

    // MARK: expectCalled(_:)

    @Test func expectCalledPassesWhenTheMethodWasCalled() {
        let hippo = loggedTestEvent()
        hippo.calls.expectCalled("logEvent(named:properties:)")
    }

    @Test func expectCalledFailsWhenTheMethodWasNeverCalled() {
        let hippo = loggedTestEvent()
        hippo.flush()
        let issue = expectOneIssue { hippo.calls.expectCalled("logEvent(name:properties:)") }
        #expect(
            issue?.message == """
                Expected a call to logEvent(name:properties:), but it was never called.

                Recorded calls (2):
                  [0] logEvent(named: "test", properties: ["key": "value"])
                  [1] flush()

                Difference from the closest recorded call, [0] (−expected +recorded):
                  − "logEvent(name:properties:)"
                  + "logEvent(named:properties:)"
                """)
    }

    @Test func expectCalledOnAnEmptyRecorderSaysNothingWasRecorded() {
        let calls = CallRecorder()
        let issue = expectOneIssue { calls.expectCalled("flush()") }
        #expect(
            issue?.message == """
                Expected a call to flush(), but it was never called.

                Recorded calls: none.
                """)
    }

    @Test func theIssueIsReportedAtTheCallersColumnToo() {
        let calls = CallRecorder()
        // #column of a call is the column of its opening parenthesis.
        let issue = expectOneIssue { calls.expectCalled("flush()") }
        let source = "        let issue = expectOneIssue { calls.expectCalled("
        #expect(issue?.column == source.count)
    }

    // MARK: expectCalled(_:with:)

    @Test func expectCalledWithArgumentsComparesAfterConversion() {
        let hippo = loggedTestEvent()
        hippo.logEvent(named: "opened", properties: nil)
        hippo.logEvent(named: "rated", properties: ["stars": 4, "ratio": 0.8, "ok": true, "tags": ["a", "b"]])
        hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
        hippo.calls.expectCalled("logEvent(named:properties:)", with: "opened", nil)
        hippo.calls.expectCalled(
            "logEvent(named:properties:)", with: "rated", ["stars": 4, "ratio": 0.8, "ok": true, "tags": ["a", "b"]])
    }

    @Test func expectCalledWithArgumentsFailsWithADiffAgainstTheClosestCall() {
        let hippo = Fixtures.HippoAnalyticsClientSpy()
        hippo.logEvent(named: "test", properties: ["key": "value", "n": 1])
        hippo.logEvent(named: "test", properties: ["key": "other", "n": 1])
        hippo.flush()
        let issue = expectOneIssue(line: #line + 1) {
            hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "another", "n": 1])
        }
        #expect(
            issue?.message.hasPrefix(
                """
                No recorded call matches the expected call:
                  logEvent(named: "test", properties: ["key": "another", "n": 1])

                Recorded calls (3):
                  [0] logEvent(named: "test", properties: ["key": "value", "n": 1])
                  [1] logEvent(named: "test", properties: ["key": "other", "n": 1])
                  [2] flush()

                Difference from the closest recorded call, [0] (−expected +recorded):
                """) == true)
        #expect(issue?.message.contains("−       \"key\": \"another\",") == true)
        #expect(issue?.message.contains("+       \"key\": \"value\",") == true)
        #expect(issue?.message.contains("named: \"test\",") == true)
    }

    @Test func theClosestCallHasTheSameMethodFirstThenTheMostSimilarArguments() {
        let hippo = Fixtures.HippoAnalyticsClientSpy()
        hippo.calls.record("log(named:properties:)", arguments: "test", ["key": "value"])  // same arguments
        hippo.logEvent(named: "other", properties: ["key": "x"])
        hippo.logEvent(named: "test", properties: ["key": "x"])
        hippo.logEvent(named: "test", properties: ["key": "x", "extra": 1])
        let issue = expectOneIssue(line: #line + 1) {
            hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
        }
        #expect(issue?.message.contains("Difference from the closest recorded call, [2]") == true)
    }

    @Test func aWrongNumberOfArgumentsIsAMismatch() {
        let calls = CallRecorder()
        calls.record("track(_:)", arguments: "a", "b")
        let issue = expectOneIssue { calls.expectCalled("track(_:)", with: "a") }
        #expect(issue?.message.contains("[0] track(_:) with (\"a\", \"b\")") == true)
    }

    @Test func argumentsThatAreNotJSONCompareByTheirDump() {
        let calls = CallRecorder()
        calls.record("show(_:)", arguments: Fixtures.User(id: 1, name: "Ada"))
        calls.expectCalled("show(_:)", with: Fixtures.User(id: 1, name: "Ada"))
        let issue = expectOneIssue { calls.expectCalled("show(_:)", with: Fixtures.User(id: 2, name: "Ada")) }
        #expect(issue?.message.contains("show(CallRecordingFixtures.User(id: 2, name: \"Ada\"))") == true)
        #expect(issue?.message.contains("−     CallRecordingFixtures.User(\n  −       id: 2,") == true)
        #expect(issue?.message.contains("+     CallRecordingFixtures.User(\n  +       id: 1,") == true)
    }

    // MARK: expectNotCalled(_:)

    @Test func expectNotCalledPassesWhenOnlyOtherMethodsWereCalled() {
        let hippo = Fixtures.HippoAnalyticsClientSpy()
        hippo.flush()
        hippo.calls.expectNotCalled("logEvent(named:properties:)")
    }

    @Test func expectNotCalledFailsListingTheCalls() {
        let hippo = loggedTestEvent()
        hippo.flush()
        hippo.logEvent(named: "again", properties: nil)
        let issue = expectOneIssue { hippo.calls.expectNotCalled("logEvent(named:properties:)") }
        #expect(
            issue?.message == """
                Expected no call to logEvent(named:properties:), but 2 were recorded:
                  [0] logEvent(named: "test", properties: ["key": "value"])
                  [2] logEvent(named: "again", properties: nil)

                Recorded calls (3):
                  [0] logEvent(named: "test", properties: ["key": "value"])
                  [1] flush()
                  [2] logEvent(named: "again", properties: nil)
                """)
    }

    // MARK: expectCount(_:of:)

    @Test func expectCountPassesOnTheExactCount() {
        let hippo = loggedTestEvent()
        hippo.logEvent(named: "again", properties: nil)
        hippo.calls.expectCount(2, of: "logEvent(named:properties:)")
        hippo.calls.expectCount(0, of: "flush()")
    }

    @Test(arguments: [1, 3])
    func expectCountFailsOnAnyOtherCount(expected: Int) {
        let hippo = loggedTestEvent()
        hippo.logEvent(named: "again", properties: nil)
        let issue = expectOneIssue { hippo.calls.expectCount(expected, of: "logEvent(named:properties:)") }
        #expect(
            issue?.message == """
                Expected \(expected) call\(expected == 1 ? "" : "s") to logEvent(named:properties:), but 2 were recorded:
                  [0] logEvent(named: "test", properties: ["key": "value"])
                  [1] logEvent(named: "again", properties: nil)

                Recorded calls (2):
                  [0] logEvent(named: "test", properties: ["key": "value"])
                  [1] logEvent(named: "again", properties: nil)
                """)
    }

    @Test func expectCountWithoutAMethodCountsEveryCall() {
        let hippo = loggedTestEvent()
        hippo.flush()
        hippo.calls.expectCount(2)
        hippo.calls.expectNothingElse()
        let issue = expectOneIssue { hippo.calls.expectCount(3) }
        #expect(
            issue?.message == """
                Expected 3 calls, but 2 were recorded.

                Recorded calls (2):
                  [0] logEvent(named: "test", properties: ["key": "value"])
                  [1] flush()
                """)
    }

    @Test func expectCountOfAMethodNeverCalledShowsTheClosestCall() {
        let hippo = loggedTestEvent()
        let issue = expectOneIssue { hippo.calls.expectCount(1, of: "logEvents(named:properties:)") }
        #expect(
            issue?.message.hasPrefix("Expected 1 call to logEvents(named:properties:), but none was recorded.") == true)
        #expect(issue?.message.contains("+ \"logEvent(named:properties:)\"") == true)
    }

    // MARK: expectCalls(inOrder:)

    @Test func expectCallsInOrderAllowsOtherCallsAroundAndBetween() {
        let calls = CallRecorder()
        calls.record("start()")
        calls.record("setDelegate(_:)", arguments: "loader")
        calls.record("ping()")
        calls.record("loadFeedbackForm(_:)", arguments: "some-id")
        calls.record("stop()")
        calls.expectCalls(inOrder: ["setDelegate(_:)", .call("loadFeedbackForm(_:)", with: "some-id")])
        calls.expectCalls(inOrder: ["start()", "ping()", "stop()"])
        calls.expectCalls(inOrder: [])
    }

    @Test func expectCallsInOrderFailsWhenACallCameTooEarly() {
        let calls = CallRecorder()
        calls.record("loadFeedbackForm(_:)", arguments: "some-id")
        calls.record("setDelegate(_:)", arguments: "loader")
        let issue = expectOneIssue(line: #line + 1) {
            calls.expectCalls(inOrder: ["setDelegate(_:)", .call("loadFeedbackForm(_:)", with: "some-id")])
        }
        #expect(
            issue?.message == """
                Expected call 2 of 2 in order, but it was not recorded after [1] setDelegate("loader"):
                  loadFeedbackForm("some-id")

                Expected, in order:
                  1. setDelegate(_:) with any arguments
                  2. loadFeedbackForm("some-id")

                Recorded calls (2):
                  [0] loadFeedbackForm("some-id")
                  [1] setDelegate("loader")

                It was recorded before that, as [0] loadFeedbackForm("some-id").
                """)
    }

    @Test func expectCallsInOrderFailsWithADiffWhenACallIsMissing() {
        let calls = CallRecorder()
        calls.record("setDelegate(_:)", arguments: "loader")
        calls.record("loadFeedbackForm(_:)", arguments: "other-id")
        let issue = expectOneIssue(line: #line + 1) {
            calls.expectCalls(inOrder: ["setDelegate(_:)", .call("loadFeedbackForm(_:)", with: "some-id")])
        }
        #expect(
            issue?.message.hasPrefix(
                """
                Expected call 2 of 2 in order, but it was not recorded after [0] setDelegate("loader"):
                  loadFeedbackForm("some-id")
                """) == true)
        #expect(
            issue?.message.contains("Difference from the closest recorded call, [1] (−expected +recorded):") == true)
        #expect(issue?.message.contains("−   arguments: (\"some-id\")") == true)
        #expect(issue?.message.contains("+   arguments: (\"other-id\")") == true)
    }

    @Test func expectCallsInOrderFailsWhenTheFirstCallIsMissing() {
        let calls = CallRecorder()
        let issue = expectOneIssue { calls.expectCalls(inOrder: ["start()"]) }
        #expect(
            issue?.message.hasPrefix("Expected call 1 of 1 in order, but it was never recorded:\n  start()") == true)
        #expect(issue?.message.hasSuffix("Recorded calls: none.") == true)
    }

    // MARK: expectNothingElse()

    @Test func expectNothingElsePassesWhenExpectationsAccountedForEveryCall() {
        let hippo = loggedTestEvent()
        hippo.flush()
        hippo.flush()
        hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
        hippo.calls.expectCount(2, of: "flush()")
        hippo.calls.expectNothingElse()

        let empty = CallRecorder()
        empty.expectNothingElse()
    }

    @Test func expectNothingElseFailsOnCallsNoExpectationMatched() {
        let hippo = loggedTestEvent()
        hippo.flush()
        hippo.logEvent(named: "again", properties: nil)
        hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
        hippo.calls.expectNotCalled("start()")  // accounts for nothing
        let issue = expectOneIssue { hippo.calls.expectNothingElse() }
        #expect(
            issue?.message == """
                Expected no other calls, but 2 recorded calls were not matched by an expectation:
                  [1] flush()
                  [2] logEvent(named: "again", properties: nil)

                Recorded calls (3):
                  [0] logEvent(named: "test", properties: ["key": "value"])
                  [1] flush()
                  [2] logEvent(named: "again", properties: nil)
                """)
    }

    @Test func aFailingExpectationAccountsForNothing() {
        let calls = CallRecorder()
        calls.record("flush()")
        _ = expectOneIssue { calls.expectCount(2, of: "flush()") }
        let issue = expectOneIssue { calls.expectNothingElse() }
        #expect(issue?.message.hasPrefix("Expected no other calls, but 1 recorded call was not matched") == true)
    }

    @Test func expectCallsInOrderAccountsOnlyForTheCallsItMatched() {
        let calls = CallRecorder()
        calls.record("ping()")
        calls.record("ping()")
        calls.expectCalls(inOrder: ["ping()"])
        let issue = expectOneIssue { calls.expectNothingElse() }
        #expect(issue?.message.contains("not matched by an expectation:\n  [1] ping()\n") == true)
    }

    @Test func aCallMadeTwiceWhereOneWasExpectedIsSomethingElse() {
        let hippo = loggedTestEvent()
        Fixtures.EventLogger(hippoAnalyticsClient: hippo).log(name: "test", properties: ["key": "value"])
        hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
        let issue = expectOneIssue { hippo.calls.expectNothingElse() }
        #expect(issue?.message.contains("not matched by an expectation:\n  [1] logEvent(named: \"test\"") == true)

        let twice = loggedTestEvent()
        Fixtures.EventLogger(hippoAnalyticsClient: twice).log(name: "test", properties: ["key": "value"])
        twice.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
        twice.calls.expectCalled("logEvent(named:properties:)")
        twice.calls.expectNothingElse()
    }

    @Test func anExpectationSaysWhetherItHeld() {
        let hippo = loggedTestEvent()
        #expect(hippo.calls.expectCalled("logEvent(named:properties:)"))
        #expect(hippo.calls.expectNotCalled("flush()"))
        #expect(hippo.calls.expectCount(1))
        #expect(hippo.calls.expectCalls(inOrder: ["logEvent(named:properties:)"]))
        #expect(hippo.calls.expectNothingElse())
        var held = true
        _ = expectOneIssue { held = hippo.calls.expectCalled("flush()") }
        #expect(!held)
    }

    // MARK: Long recordings

    @Test func aMessageListsAtMostFiftyCalls() {
        let calls = CallRecorder()
        for index in 0..<120 { calls.record("tick(_:)", arguments: index) }
        let issue = expectOneIssue { calls.expectCalled("tick(_:)", with: 500) }
        #expect(issue?.message.contains("Recorded calls (120):") == true)
        #expect(issue?.message.contains("  [49] tick(49)\n  … and 70 more") == true)
        #expect(issue?.message.contains("[50] tick(50)") == false)
    }
}
