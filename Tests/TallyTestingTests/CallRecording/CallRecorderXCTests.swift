import Tally
import TallyTestSupport
import TallyTesting
import XCTest

private typealias Fixtures = CallRecordingFixtures

/// The same expectations under XCTest: each failure reaches XCTest once, at the assertion's file and line,
/// with the message the Swift Testing suites check.
///
/// Linux's XCTest has no `XCTExpectFailure`, so the class catches its own failures where XCTest records them
/// (`FailureCapturingTestCase`).
final class CallRecorderXCTests: FailureCapturingTestCase {
    private func loggedTestEvent() -> Fixtures.HippoAnalyticsClientSpy {
        let hippo = Fixtures.HippoAnalyticsClientSpy()
        Fixtures.EventLogger(hippoAnalyticsClient: hippo).log(name: "test", properties: ["key": "value"])
        return hippo
    }

    // MARK: expectCalled

    func testExpectCalledPasses() {
        loggedTestEvent().calls.expectCalled("logEvent(named:properties:)")
        loggedTestEvent().calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "value"])
    }

    func testExpectingACallOnceMoreThanItWasMadeFails() {
        let hippo = loggedTestEvent()
        hippo.calls.expectCalled("logEvent(named:properties:)")
        let message = expectOneFailure { hippo.calls.expectCalled("logEvent(named:properties:)") }
        XCTAssertTrue(
            message?.contains(
                "Expected a call to logEvent(named:properties:) that no other expectation accounted for, but its 1 recorded call was accounted for already:"
            ) == true, message ?? "no failure")
    }

    func testExpectCalledFailsOnceAtTheCallersLine() {
        let hippo = loggedTestEvent()
        let message = expectOneFailure { hippo.calls.expectCalled("logEvent(name:properties:)") }
        // XCTest prefixes the message ("failed - "), and IssueReporting may append a note about app hosts.
        XCTAssertTrue(
            message?.contains(
                """
                Expected a call to logEvent(name:properties:), but it was never called.

                Recorded calls (1):
                  [0] logEvent(named: "test", properties: ["key": "value"])

                Difference from the closest recorded call, [0] (−expected +recorded):
                  − "logEvent(name:properties:)"
                  + "logEvent(named:properties:)"
                """) == true, message ?? "")
    }

    func testExpectCalledWithArgumentsFailsWithADiff() {
        let hippo = loggedTestEvent()
        let message = expectOneFailure(atLine: #line + 1) {
            hippo.calls.expectCalled("logEvent(named:properties:)", with: "test", ["key": "other"])
        }
        XCTAssertTrue(message?.contains("No recorded call matches the expected call:") == true, message ?? "")
        XCTAssertTrue(message?.contains("−       \"key\": \"other\"") == true, message ?? "")
        XCTAssertTrue(message?.contains("+       \"key\": \"value\"") == true, message ?? "")
    }

    // MARK: expectNotCalled

    func testExpectNotCalledPasses() {
        loggedTestEvent().calls.expectNotCalled("flush()")
    }

    func testExpectNotCalledFails() {
        let hippo = loggedTestEvent()
        let message = expectOneFailure { hippo.calls.expectNotCalled("logEvent(named:properties:)") }
        XCTAssertTrue(message?.contains("Expected no call to logEvent(named:properties:), but 1 was recorded:") == true)
    }

    // MARK: expectCount

    func testExpectCountPasses() {
        let hippo = loggedTestEvent()
        hippo.calls.expectCount(1, of: "logEvent(named:properties:)")
        hippo.calls.expectCount(0, of: "flush()")
    }

    func testExpectCountFails() {
        let hippo = loggedTestEvent()
        let tooFew = expectOneFailure { hippo.calls.expectCount(2, of: "logEvent(named:properties:)") }
        XCTAssertTrue(tooFew?.contains("Expected 2 calls to logEvent(named:properties:), but 1 was recorded:") == true)
        let tooMany = expectOneFailure { hippo.calls.expectCount(0, of: "logEvent(named:properties:)") }
        XCTAssertTrue(tooMany?.contains("Expected 0 calls to logEvent(named:properties:), but 1 was recorded:") == true)
    }

    // MARK: expectCalls(inOrder:)

    func testExpectCallsInOrderPasses() {
        let hippo = loggedTestEvent()
        hippo.flush()
        hippo.calls.expectCalls(inOrder: [
            .call("logEvent(named:properties:)", with: "test", ["key": "value"]), "flush()",
        ])
    }

    func testExpectCallsInOrderFails() {
        let hippo = loggedTestEvent()
        hippo.flush()
        let message = expectOneFailure { hippo.calls.expectCalls(inOrder: ["flush()", "logEvent(named:properties:)"]) }
        XCTAssertTrue(
            message?.contains("Expected call 2 of 2 in order, but it was not recorded after [1] flush():") == true)
        XCTAssertTrue(message?.contains("It was recorded before that, as [0] logEvent(") == true)
    }

    // MARK: expectNothingElse

    func testExpectNoOtherCallsPasses() {
        let hippo = loggedTestEvent()
        hippo.calls.expectCalled("logEvent(named:properties:)")
        hippo.calls.expectNothingElse()
    }

    func testExpectNoOtherCallsFails() {
        let hippo = loggedTestEvent()
        hippo.flush()
        hippo.calls.expectCalled("logEvent(named:properties:)")
        let message = expectOneFailure { hippo.calls.expectNothingElse() }
        XCTAssertTrue(message?.contains("not matched by an expectation:\n  [1] flush()") == true)
    }

    // MARK: Stubs

    func testStubsAnswerAndRelaxedModeIsSilent() throws {
        let spy = Fixtures.FeedbackServiceSpy()
        spy.calls.stub("pendingCount()", returning: 4)
        spy.calls.stub("load(_:)", throwing: Fixtures.MultipleFormLoadError())
        XCTAssertEqual(spy.pendingCount(), 4)
        XCTAssertThrowsError(try spy.load("a")) { XCTAssertTrue($0 is Fixtures.MultipleFormLoadError) }

        let relaxed = Fixtures.FeedbackServiceSpy(mode: .relaxed)
        XCTAssertNil(relaxed.user(id: 1))  // no failure recorded: the test would fail
    }

    func testAnUnstubbedCallFailsAtTheSpy() {
        let spy = Fixtures.FeedbackServiceSpy()
        var user: Fixtures.User? = Fixtures.User(id: 0, name: "")
        let message = expectOneFailure(inFile: Fixtures.filePath, atLine: Fixtures.FeedbackServiceSpy.userLine) {
            user = spy.user(id: 42)
        }
        XCTAssertNil(user)
        XCTAssertTrue(message?.contains("Unstubbed call to user(id:), which returns Optional<User>") == true)
    }

    func testAStaticCallWithNoCurrentRecorderFailsAtTheSpy() {
        let message = expectOneFailure(inFile: Fixtures.filePath, atLine: Fixtures.ThirdPartySpy.loadFeedbackFormLine) {
            Fixtures.ThirdPartySpy.loadFeedbackForm("some-id")
        }
        XCTAssertTrue(message?.contains("Static call to loadFeedbackForm(_:) with no current CallRecorder") == true)
    }

    // MARK: Static SDKs

    func testAStaticSpyRecordsIntoTheCurrentRecorder() {
        let sdk = CallRecorder()
        CallRecorder.withCurrent(sdk) {
            Fixtures.ThirdPartySpy.loadFeedbackForm("some-id")
        }
        sdk.expectCalled("loadFeedbackForm(_:)", with: "some-id")
    }
}
