// swift-format-ignore: OrderedImports
// The C library before XCTest (which brings Foundation), as in SmallStack.swift: with Foundation first here,
// Swift 6.3.1 on Linux rejects SmallStack.swift's `pthread_attr_t()` under MemberImportVisibility.
#if canImport(XCTest)
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import XCTest

/// A failure that a `FailureCapturingTestCase` captured instead of recording: the message and the place
/// XCTest was given.
package struct CapturedFailure: Sendable {
    /// The failure's description, as XCTest would have shown it.
    package var message: String
    /// The path of the file the failure was reported in.
    package var file: String
    /// The line the failure was reported at (-1 when XCTest was given no place).
    package var line: Int
}

/// An XCTest case that can capture its own failures, for the tests that check what a failing expectation
/// reports to XCTest: how many failures, at which file and line, with which message.
///
/// Linux's XCTest has no `XCTExpectFailure`, and IssueReporting's `withExpectedIssue` reports "unavailable"
/// there, so the class catches failures where XCTest records them: on Linux in
/// `recordFailure(withDescription:inFile:atLine:expected:)` (where `XCTFail`, which IssueReporting calls,
/// ends), on Apple platforms in `record(_:)`. While `capturing` is true a failure goes to `captured` and does
/// not fail the test; otherwise it is recorded as usual.
open class FailureCapturingTestCase: XCTestCase {
    /// The failures captured while `capturing` was true, oldest first.
    package var captured: [CapturedFailure] = []
    /// Whether a failure is captured (true) or recorded as usual (false).
    package var capturing = false

    #if canImport(Darwin)
    override open func record(_ issue: XCTIssue) {
        guard capturing else { return super.record(issue) }
        captured.append(
            CapturedFailure(
                message: issue.compactDescription, file: issue.sourceCodeContext.location?.fileURL.path ?? "",
                line: issue.sourceCodeContext.location?.lineNumber ?? -1))
    }
    #else
    override open func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        guard capturing else {
            return super.recordFailure(
                withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        captured.append(CapturedFailure(message: description, file: filePath, line: lineNumber))
    }
    #endif

    /// Runs `body` and returns the failures it reported, instead of failing the test with them.
    package func failures(in body: () -> Void) -> [CapturedFailure] {
        captured = []
        capturing = true
        body()
        capturing = false
        return captured
    }

    /// Runs `body`, which must fail exactly once, and returns the failure's message.
    ///
    /// The failure must be reported in `failureFile` (the caller's file by default) at `failureLine` (the
    /// caller's line by default; any line when `failureFile` is given without one). Otherwise this fails the
    /// test at the caller's line.
    package func expectOneFailure(
        inFile failureFile: String? = nil, atLine failureLine: Int? = nil, file: StaticString = #filePath,
        line: UInt = #line, _ body: () -> Void
    ) -> String? {
        let failures = failures(in: body)
        XCTAssertEqual(failures.count, 1, "expected exactly one failure", file: file, line: line)
        guard let failure = failures.first else { return nil }
        XCTAssertEqual(failure.file, failureFile ?? "\(file)", file: file, line: line)
        if failureFile == nil || failureLine != nil {
            XCTAssertEqual(failure.line, failureLine ?? Int(line), "reported at another line", file: file, line: line)
        }
        return failure.message
    }
}
#endif
