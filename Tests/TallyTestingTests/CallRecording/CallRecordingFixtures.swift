import Foundation
import Tally
import TallyTesting
import Testing

/// Spies written the way the toolkit's users write them, on protocols from the seed articles. Namespaced so
/// they never collide with other test files of this target.
enum CallRecordingFixtures {
    /// This file, where the spies below report issues about their calls.
    static let filePath = "\(#filePath)"
    static let fileID = "\(#fileID)"

    // Seed 003: the one-to-one interface over HippoAnalyticsClient.
    protocol HippoAnalyticsClientInterface {
        func logEvent(named name: String, properties: [String: Any]?)
    }

    final class HippoAnalyticsClientSpy: HippoAnalyticsClientInterface, Sendable {
        let calls: CallRecorder

        init(mode: CallRecorder.Mode = .strict) { calls = CallRecorder(mode: mode) }

        func logEvent(named name: String, properties: [String: Any]?) {
            calls.record(arguments: name, properties)
        }

        func flush() {
            calls.record()
        }
    }

    // Seed 003: the code under test.
    struct EventLogger {
        let hippoAnalyticsClient: any HippoAnalyticsClientInterface
        func log(name: String, properties: [String: Any]) {
            hippoAnalyticsClient.logEvent(named: name, properties: properties)
        }
    }

    struct User: Sendable, Equatable {
        var id: Int
        var name: String
    }

    struct Form: Sendable, Equatable {
        var id: String
        static let empty = Form(id: "")
    }

    struct MultipleFormLoadError: Error, Equatable {}

    // Seed 001: the app's FeedbackService, mocked (`MockFeedbackService`), plus methods that return.
    protocol FeedbackService {
        func load(_ id: String) throws -> Form
        func cancel(_ id: String) throws
        func user(id: Int) -> User?
        func pendingCount() -> Int
    }

    final class FeedbackServiceSpy: FeedbackService, Sendable {
        let calls: CallRecorder

        init(mode: CallRecorder.Mode = .strict) { calls = CallRecorder(mode: mode) }

        /// The line of each spy method, where the recorder reports issues about its calls.
        static let loadLine = #line + 1
        func load(_ id: String) throws -> Form { try calls.recordThrowing(default: .empty, arguments: id) }
        func cancel(_ id: String) throws { try calls.recordThrowing(arguments: id) }
        static let userLine = #line + 1
        func user(id: Int) -> User? { calls.record(default: nil, arguments: id) }
        static let pendingCountLine = #line + 1
        func pendingCount() -> Int { calls.record(default: 0) }
    }

    // Seed 001: the vendor's static API, as a protocol with static requirements the app is generic over.
    protocol ThirdPartyFeedbackSDK {
        static func loadFeedbackForm(_ id: String)
        static func isFormCached(_ id: String) -> Bool
    }

    enum ThirdPartySpy: ThirdPartyFeedbackSDK {
        static let loadFeedbackFormLine = #line + 2
        static func loadFeedbackForm(_ id: String) {
            CallRecorder.current.record(arguments: id)
        }

        static let isFormCachedLine = #line + 2
        static func isFormCached(_ id: String) -> Bool {
            CallRecorder.current.record(default: false, arguments: id)
        }
    }

    struct FeedbackLoader<SDK: ThirdPartyFeedbackSDK> {
        func load(_ id: String) {
            if !SDK.isFormCached(id) { SDK.loadFeedbackForm(id) }
        }
    }
}

extension CallRecordingFixtures {
    /// An issue a failing toolkit assertion reported: what it said and where.
    struct ReportedIssue: Sendable {
        var message: String
        var fileID: String
        var line: Int
        var column: Int
    }

    final class LockedIssues: @unchecked Sendable {
        private let lock = NSLock()
        private var issues: [ReportedIssue] = []

        func append(_ issue: ReportedIssue) {
            lock.lock()
            defer { lock.unlock() }
            issues.append(issue)
        }

        var all: [ReportedIssue] {
            lock.lock()
            defer { lock.unlock() }
            return issues
        }
    }
}

/// The call-recording suites: they share the helpers below, which check the issues the toolkit reports.
protocol CallRecordingSuite {}

extension CallRecordingSuite {
    /// Runs `body`, which must make the toolkit report exactly one issue, as a known issue of this test;
    /// returns that issue, or nil after recording why the expectation on it failed.
    ///
    /// The issue must be reported at `line` of `fileID`, the caller's line by default: keep the assertion under
    /// test on the same line as the call to this function.
    func expectOneIssue(
        fileID: String = #fileID,
        line: Int = #line,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () -> Void
    ) -> CallRecordingFixtures.ReportedIssue? {
        let issues = CallRecordingFixtures.LockedIssues()
        withKnownIssue(sourceLocation: sourceLocation) {
            body()
        } matching: { issue in
            issues.append(
                CallRecordingFixtures.ReportedIssue(
                    message: issue.comments.map(\.rawValue).joined(separator: "\n"),
                    fileID: issue.sourceLocation?.fileID ?? "",
                    line: issue.sourceLocation?.line ?? 0,
                    column: issue.sourceLocation?.column ?? 0))
            return true
        }
        let reported = issues.all
        #expect(
            reported.count == 1, "expected exactly one issue, got \(reported.count)", sourceLocation: sourceLocation)
        guard let issue = reported.first else { return nil }
        #expect(issue.fileID == fileID, sourceLocation: sourceLocation)
        #expect(
            issue.line == line, "reported at line \(issue.line), not at the assertion's line",
            sourceLocation: sourceLocation)
        return issue
    }

    /// Runs `body` and returns how many issues it reported, without letting them fail the test. For checks
    /// that a call reports nothing.
    func issueCount(_ body: () -> Void) -> Int {
        let issues = CallRecordingFixtures.LockedIssues()
        withKnownIssue(isIntermittent: true) {
            body()
        } matching: { issue in
            issues.append(CallRecordingFixtures.ReportedIssue(message: "\(issue)", fileID: "", line: 0, column: 0))
            return true
        }
        return issues.all.count
    }
}
