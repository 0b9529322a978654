import Foundation
import Testing

/// Runs `body`, which must report exactly one issue, at `line`, whose message contains every fragment.
/// Fails the test otherwise. This is how the toolkit's own failure messages are tested in Swift Testing.
func expectOneIssue(
    containing fragments: [String], atLine line: Int, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () -> Void
) {
    let issues = IssueLog()
    withKnownIssue {
        body()
    } matching: { issue in
        issues.append(issue)
        return true
    }
    let recorded = issues.all
    #expect(recorded.count == 1, "expected exactly one issue, got \(recorded.count)", sourceLocation: sourceLocation)
    guard let issue = recorded.first else { return }
    let message = issue.comments.map(\.rawValue).joined(separator: "\n")
    #expect(
        issue.sourceLocation?.line == line, "issue reported at line \(issue.sourceLocation?.line ?? -1)",
        sourceLocation: sourceLocation)
    #expect(issue.sourceLocation?.fileName == sourceLocation.fileName, sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(
            message.contains(fragment), "message lacks \(fragment.debugDescription):\n\(message)",
            sourceLocation: sourceLocation)
    }
}

/// Async form of ``expectOneIssue(containing:atLine:sourceLocation:_:)``.
func expectOneIssue(
    containing fragments: [String], atLine line: Int, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async -> Void
) async {
    let issues = IssueLog()
    await withKnownIssue {
        await body()
    } matching: { issue in
        issues.append(issue)
        return true
    }
    let recorded = issues.all
    #expect(recorded.count == 1, "expected exactly one issue, got \(recorded.count)", sourceLocation: sourceLocation)
    guard let issue = recorded.first else { return }
    let message = issue.comments.map(\.rawValue).joined(separator: "\n")
    #expect(
        issue.sourceLocation?.line == line, "issue reported at line \(issue.sourceLocation?.line ?? -1)",
        sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(
            message.contains(fragment), "message lacks \(fragment.debugDescription):\n\(message)",
            sourceLocation: sourceLocation)
    }
}

final class IssueLog: @unchecked Sendable {
    // @unchecked: `issues` is only touched while `lock` is held.
    private let lock = NSLock()
    private var issues: [Issue] = []

    func append(_ issue: Issue) {
        lock.lock()
        issues.append(issue)
        lock.unlock()
    }

    var all: [Issue] {
        lock.lock()
        defer { lock.unlock() }
        return issues
    }
}

/// A trait that expects the test, or each test of a suite, to report exactly one issue at `line` whose
/// message contains every fragment, and fails the test otherwise.
///
/// It tests traits that report when a test ends, such as `.exhaustive`, which `withKnownIssue` inside the
/// test's body cannot catch. List it before the trait under test (or on an enclosing suite), so that its
/// scope is the outer one:
///
/// ```swift
/// @Test(.expectingOneIssue(containing: ["Exhaustive mode"], atLine: #line + 2), .exhaustive)
/// func leftOver() {
///     AnalyticsSpy().track("left over")
/// }
/// ```
struct ExpectingOneIssueTrait: TestTrait, SuiteTrait, TestScoping {
    let fragments: [String]
    let line: Int
    let sourceLocation: SourceLocation

    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let issues = IssueLog()
        try await withKnownIssue {
            try await function()
        } matching: { issue in
            issues.append(issue)
            return true
        }
        let recorded = issues.all
        #expect(
            recorded.count == 1, "expected exactly one issue, got \(recorded.count)", sourceLocation: sourceLocation)
        guard let issue = recorded.first else { return }
        let message = issue.comments.map(\.rawValue).joined(separator: "\n")
        #expect(
            issue.sourceLocation?.line == line, "issue reported at line \(issue.sourceLocation?.line ?? -1)",
            sourceLocation: sourceLocation)
        #expect(issue.sourceLocation?.fileName == sourceLocation.fileName, sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(
                message.contains(fragment), "message lacks \(fragment.debugDescription):\n\(message)",
                sourceLocation: sourceLocation)
        }
    }
}

extension Trait where Self == ExpectingOneIssueTrait {
    /// See ``ExpectingOneIssueTrait``.
    static func expectingOneIssue(
        containing fragments: [String], atLine line: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Self {
        ExpectingOneIssueTrait(fragments: fragments, line: line, sourceLocation: sourceLocation)
    }
}
