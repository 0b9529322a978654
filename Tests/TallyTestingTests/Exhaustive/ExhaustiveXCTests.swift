import Foundation
import Tally
import TallyTestSupport
import TallyTesting
import XCTest

/// Exhaustive mode in XCTest: `withExhaustiveCheck` around a test's body reports through XCTest once per
/// recorder, at the line that created it, with the message the Swift Testing suites check.
///
/// On Linux, XCTest has no `XCTExpectFailure`: the class catches its own failures where XCTest records them
/// (`FailureCapturingTestCase`).
final class ExhaustiveXCTests: FailureCapturingTestCase {
    func testEverythingAccountedForRecordsNothing() {
        let recorded = failures {
            withExhaustiveCheck {
                let spy = AnalyticsSpy()
                spy.track("login_tapped", ["action": "tap"])
                spy.expectTracked(Event("login_tapped", ["action": "tap"]))
            }
        }
        XCTAssertTrue(recorded.isEmpty, "\(recorded)")
    }

    func testAnEventLeftOverIsRecordedOnceAtTheLineThatCreatedTheSpy() {
        let line = #line + 3
        let recorded = failures {
            withExhaustiveCheck {
                let spy = AnalyticsSpy()
                spy.track("login_tapped", ["action": "tap"])
                spy.track("login_tapped", ["action": "tap"])
                spy.expectTracked(Event("login_tapped", ["action": "tap"]))
            }
        }
        XCTAssertEqual(recorded.count, 1)
        XCTAssertEqual(recorded.first?.line, line)
        XCTAssertEqual(
            recorded.first.map { URL(fileURLWithPath: $0.file).lastPathComponent }, "ExhaustiveXCTests.swift")
        let message = recorded.first?.message ?? ""
        XCTAssertTrue(
            message.contains(
                "Exhaustive mode: 1 event recorded by the AnalyticsSpy created at TallyTestingTests/ExhaustiveXCTests.swift:\(line) was not accounted for by any expectation:"
            ), message)
        XCTAssertTrue(message.contains(#"  [1] track login_tapped {"action":"tap"}"#), message)
    }

    func testACallMadeTwiceWhereExpectCalledExpectsItOnceIsRecorded() {
        let line = #line + 3
        let recorded = failures {
            withExhaustiveCheck {
                let sdk = CallRecorder()
                sdk.record("setUserID(_:)", arguments: "user-42")
                sdk.record("setUserID(_:)", arguments: "user-42")
                sdk.expectCalled("setUserID(_:)", with: "user-42")
            }
        }
        XCTAssertEqual(recorded.map(\.line), [line])
        let message = recorded.first?.message ?? ""
        XCTAssertTrue(message.contains("1 call recorded by the CallRecorder"), message)
        XCTAssertTrue(message.contains(#"  [1] setUserID("user-42")"#), message)
    }

    func testARecorderCreatedInAnotherFileIsRecordedAtTheCheck() {
        let line = #line + 2
        let recorded = failures {
            withExhaustiveCheck {
                CallRecordingFixtures.HippoAnalyticsClientSpy().logEvent(named: "test", properties: nil)
            }
        }
        XCTAssertEqual(recorded.map(\.line), [line])
        XCTAssertTrue(
            recorded.first?.message.contains("created at TallyTestingTests/CallRecordingFixtures.swift:") == true,
            "\(recorded)")
    }

    func testOptingOutRecordsNothing() {
        let recorded = failures {
            withExhaustiveCheck {
                let spy = AnalyticsSpy()
                spy.isExhaustive = false
                spy.track("anything")
                withExhaustiveCheck(false) { CallRecorder().record("anything()") }
            }
        }
        XCTAssertTrue(recorded.isEmpty, "\(recorded)")
    }
}

/// The documented way to make every test of an XCTest class exhaustive: `invokeTest` runs each test inside
/// `withExhaustiveCheck`. Each test here leaves one event over on purpose, and `invokeTest` checks that
/// exactly that was reported, for a synchronous and an asynchronous test.
final class ExhaustiveInvokeTestXCTests: FailureCapturingTestCase {
    /// The line each test created its spy on.
    private var spyLine = 0

    override func invokeTest() {
        capturing = true
        withExhaustiveCheck { super.invokeTest() }
        capturing = false
        let reported = captured
        guard reported.count == 1, reported[0].line == spyLine,
            reported[0].message.contains("1 event recorded by the AnalyticsSpy"),
            reported[0].message.contains("  [0] track left_over")
        else {
            return XCTFail("expected one exhaustive failure at line \(spyLine), got \(reported)")
        }
    }

    func testASynchronousTestIsChecked() {
        spyLine = #line + 1
        let spy = AnalyticsSpy()
        spy.track("left_over")
    }

    func testAnAsynchronousTestIsChecked() async {
        spyLine = #line + 1
        let spy = AnalyticsSpy()
        await Task { spy.track("left_over") }.value
    }
}
