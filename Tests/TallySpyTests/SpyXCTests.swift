#if SpyMacro
import Foundation
import TallySpy
import TallyTestSupport
import XCTest

/// The generated spies under XCTest: each failure reaches XCTest once, at the expectation's file and line,
/// with the message the Swift Testing suites check. Linux's XCTest has no `XCTExpectFailure`, so this class
/// catches its own failures (`FailureCapturingTestCase`).
final class SpyXCTests: FailureCapturingTestCase {
    private func usedSpy() -> UserServiceSpy {
        let users = UserServiceSpy(mode: .relaxed)
        users.log("a")
        _ = users.find(name: "Ada")
        return users
    }

    func testPassingExpectationsRecordNothing() {
        let users = usedSpy()
        users.expectCalled(.log("a"))
        users.expectCalls(inOrder: [.log, .find(name: "Ada")])
        users.expectNothingElse()
    }

    func testExpectCalledFailsOnceAtTheCallersLineWithADiff() {
        let users = usedSpy()
        let message = expectOneFailure { users.expectCalled(.find(name: "Grace")) }
        XCTAssertTrue(message?.contains("No recorded call matches the expected call:\n  find(name: \"Grace\")") == true)
        XCTAssertTrue(message?.contains("−   arguments: (name: \"Grace\")") == true, message ?? "")
        XCTAssertTrue(message?.contains("+   arguments: (name: \"Ada\")") == true, message ?? "")
    }

    func testAPredicateThatAcceptsNoCallFailsOnceAtTheCallersLine() {
        let users = usedSpy()
        XCTAssertTrue(users.expectCalled(.log) { $0.arguments == ["a"] })
        let message = expectOneFailure { users.expectCalled(.find) { $0.arguments == ["Grace"] } }
        XCTAssertTrue(
            message?.contains(
                "Expected a call to find(name:) that the predicate accepts, but it turned down 1 recorded call"
            ) == true, message ?? "")
    }

    func testExpectNotCalledAndCountFail() {
        let users = usedSpy()
        let notCalled = expectOneFailure { users.expectNotCalled(.log) }
        XCTAssertTrue(notCalled?.contains("Expected no call to log(_:), but 1 was recorded:") == true)
        let count = expectOneFailure { users.expectCount(2, of: .log) }
        XCTAssertTrue(count?.contains("Expected 2 calls to log(_:), but 1 was recorded:") == true)
    }

    func testExpectCallsInOrderAndNothingElseFail() {
        let users = usedSpy()
        let order = expectOneFailure { users.expectCalls(inOrder: [.find, .log]) }
        XCTAssertTrue(order?.contains("Expected call 2 of 2 in order") == true)
        let nothingElse = expectOneFailure { users.expectNothingElse() }
        XCTAssertTrue(nothingElse?.contains("2 recorded calls were not matched by an expectation:") == true)
    }

    func testAnUnstubbedCallFailsAtTheLineThatCreatedTheSpy() {
        let spyLine = #line + 1
        let users = UserServiceSpy()
        let message = expectOneFailure(atLine: spyLine) { _ = users.count() }
        XCTAssertTrue(
            message?.contains("Unstubbed call to count(), which returns Int: returned the default, 0.") == true)
    }

    func testAStubThatDoesNotFitFailsAtItsLine() {
        let users = UserServiceSpy()
        let stubLine = #line + 1
        users.stub(.count, returning: "three")
        let message = expectOneFailure(atLine: stubLine) { _ = users.count() }
        XCTAssertTrue(message?.contains("The stub for count() answered String, but count() returns Int") == true)
    }

    func testAStaticCallWithNoInstalledSpyFailsAtTheSpiedProtocol() {
        let fixtures = "\(#filePath)".replacingOccurrences(
            of: "SpyXCTests.swift", with: "Fixtures/SpiedProtocols.swift")
        let message = expectOneFailure(inFile: fixtures) { UserServiceSpy.configure(key: "k") }
        XCTAssertTrue(
            message?.contains(
                "Static call to UserServiceSpy.configure(key:) with no UserServiceSpy installed: the call was not recorded."
            ) == true, message ?? "")
    }
}
#endif
