import IssueReporting
import XCTest

#if canImport(Testing)
import Testing
#endif

/// Reports a failed expectation as one issue of the running test, at the caller's location.
///
/// In Swift Testing the issue goes through IssueReporting, which reaches the `Testing` framework through
/// `IssueReportingTestSupport` (TallyTesting links it, so a test target needs nothing but TallyTesting). In
/// XCTest it calls `XCTFail` directly: IssueReporting's own XCTest path cannot tell a test from a host
/// application on Linux and would append a paragraph about host applications to every message.
func reportFailure(
    _ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
) {
    if case .xcTest? = TestContext.current {
        XCTFail(message, file: filePath, line: line)
    } else {
        reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// Reports a failure at a place known only as text, such as a Swift Testing test's own source location.
///
/// In Swift Testing the issue is recorded at that place; in XCTest, whose failures need a static file
/// path, it is reported as XCTest reports a failure without one: on the running test.
func reportFailure(_ message: String, fileID: String, filePath: String, line: Int, column: Int) {
    #if canImport(Testing)
    if case .swiftTesting? = TestContext.current {
        Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return
    }
    #endif
    XCTFail("\(message)\n\n(at \(fileID):\(line))")
}
