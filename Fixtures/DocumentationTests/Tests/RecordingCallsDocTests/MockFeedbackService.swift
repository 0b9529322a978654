// Recording calls: "Stubbing what a method returns".

import TallyTesting
import Testing

protocol FeedbackService {
    func load(_ id: String) throws -> Form
    func user(id: Int) -> User?
    func pendingCount() -> Int
}

final class MockFeedbackService: FeedbackService, Sendable {
    let calls = CallRecorder()

    func load(_ id: String) throws -> Form { try calls.recordThrowing(default: .empty, arguments: id) }
    func user(id: Int) -> User? { calls.record(default: nil, arguments: id) }
    func pendingCount() -> Int { calls.record(default: 0) }
}

@Test func showsTheBadgeWhenFormsArePending() {
    let feedback = MockFeedbackService()
    feedback.calls.stub("pendingCount()", returning: 3)
    feedback.calls.stub("user(id:)") { call in call.arguments == [1] ? User(id: 1, name: "Ada") : nil }
    feedback.calls.stub("load(_:)", throwing: MultipleFormLoadError())
    // ...
}
