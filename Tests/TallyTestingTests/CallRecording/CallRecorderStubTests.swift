import Foundation
import Tally
import TallyTesting
import Testing

private typealias Fixtures = CallRecordingFixtures

/// Return stubs: what a stubbed method returns or throws, and what an unstubbed one does in each mode.
@Suite struct CallRecorderStubTests: CallRecordingSuite {
    private let ada = Fixtures.User(id: 1, name: "Ada")

    @Test func aStubbedMethodReturnsTheStubbedValue() {
        let spy = Fixtures.FeedbackServiceSpy()
        spy.calls.stub("user(id:)", returning: ada)
        spy.calls.stub("pendingCount()", returning: 7)
        #expect(spy.user(id: 1) == ada)
        #expect(spy.user(id: 2) == ada)
        #expect(spy.pendingCount() == 7)
        spy.calls.expectCalls(inOrder: [.call("user(id:)", with: 1), .call("user(id:)", with: 2), "pendingCount()"])
    }

    @Test func anOptionalStubMayBeNil() {
        let spy = Fixtures.FeedbackServiceSpy()
        spy.calls.stub("user(id:)", returning: ada)
        spy.calls.stub("user(id:)", returning: nil as Fixtures.User?)  // the later stub replaces the earlier
        #expect(spy.user(id: 1) == nil)
    }

    @Test func aClosureStubAnswersFromTheArguments() {
        let spy = Fixtures.FeedbackServiceSpy()
        let ada = ada
        spy.calls.stub("user(id:)") { call in call.arguments == [1] ? ada : nil }
        #expect(spy.user(id: 1) == ada)
        #expect(spy.user(id: 2) == nil)
    }

    @Test func aThrowingMethodThrowsTheStubbedError() throws {
        let spy = Fixtures.FeedbackServiceSpy()
        spy.calls.stub("load(_:)", throwing: Fixtures.MultipleFormLoadError())
        spy.calls.stub("cancel(_:)", throwing: Fixtures.MultipleFormLoadError())
        #expect(throws: Fixtures.MultipleFormLoadError()) { try spy.load("a") }
        #expect(throws: Fixtures.MultipleFormLoadError()) { try spy.cancel("a") }

        spy.calls.stub("load(_:)", returning: Fixtures.Form(id: "a"))
        #expect(try spy.load("a") == Fixtures.Form(id: "a"))
        spy.calls.expectCount(2, of: "load(_:)")
    }

    @Test func aVoidMethodRunsItsStubForItsSideEffects() {
        let calls = CallRecorder()
        let seen = CallRecordingFixtures.LockedIssues()
        calls.stub("flush()") { call in
            seen.append(.init(message: call.description, fileID: "", line: 0, column: 0))
        }
        calls.record("flush()")
        #expect(seen.all.map(\.message) == ["flush()"])
    }

    @Test func aThrowingVoidMethodNeedsNoStub() throws {
        let spy = Fixtures.FeedbackServiceSpy()
        try spy.cancel("a")
        spy.calls.expectCalled("cancel(_:)", with: "a")
    }

    // MARK: Unstubbed calls

    @Test func anUnstubbedCallInStrictModeReportsOnceAndReturnsTheDefault() {
        let spy = Fixtures.FeedbackServiceSpy()
        var user: Fixtures.User? = ada
        let issue = expectOneIssue(fileID: Fixtures.fileID, line: Fixtures.FeedbackServiceSpy.userLine) {
            user = spy.user(id: 42)
        }
        #expect(user == nil)
        #expect(
            issue?.message == """
                Unstubbed call to user(id:), which returns Optional<User>: returned the spy's default.

                Call: user(id: 42)

                Stub it on the spy's recorder before the code under test calls it:
                  calls.stub("user(id:)", returning: <Optional<User>>)
                or answer from the arguments with calls.stub("user(id:)") { call in ... }.
                To return the default named in record(default:arguments:) without an issue, create the recorder \
                as CallRecorder(mode: .relaxed).
                """)
        spy.calls.expectCalled("user(id:)", with: 42)  // the call is recorded all the same
    }

    @Test func anUnstubbedThrowingCallInStrictModeReportsAndReturnsTheDefault() throws {
        let spy = Fixtures.FeedbackServiceSpy()
        var form: Fixtures.Form?
        let issue = expectOneIssue(fileID: Fixtures.fileID, line: Fixtures.FeedbackServiceSpy.loadLine) {
            form = try? spy.load("a")
        }
        #expect(form == .empty)
        #expect(issue?.message.hasPrefix("Unstubbed call to load(_:), which returns Form") == true)
        #expect(issue?.message.contains("record(default:arguments:)") == false)
        #expect(issue?.message.contains("recordThrowing(default:arguments:)") == true)
    }

    @Test func anUnstubbedCallInRelaxedModeReturnsTheDefaultSilently() throws {
        let spy = Fixtures.FeedbackServiceSpy(mode: .relaxed)
        var user: Fixtures.User? = ada
        var count = -1
        var form: Fixtures.Form?
        let issues = issueCount {
            user = spy.user(id: 1)
            count = spy.pendingCount()
            form = try? spy.load("a")
        }
        #expect(issues == 0)
        #expect(user == nil)
        #expect(count == 0)
        #expect(form == .empty)
        spy.calls.expectCount(1, of: "user(id:)")
    }

    @Test func relaxedModeStillReturnsStubs() {
        let spy = Fixtures.FeedbackServiceSpy(mode: .relaxed)
        spy.calls.stub("pendingCount()", returning: 2)
        #expect(spy.pendingCount() == 2)
    }

    @Test func aStubOfTheWrongTypeIsReported() {
        let spy = Fixtures.FeedbackServiceSpy(mode: .relaxed)
        spy.calls.stub("pendingCount()", returning: "three")
        var count = -1
        let issue = expectOneIssue(fileID: Fixtures.fileID, line: Fixtures.FeedbackServiceSpy.pendingCountLine) {
            count = spy.pendingCount()
        }
        #expect(count == 0)
        #expect(
            issue?.message == """
                The stub for pendingCount() returned String, but the spy returns Int: returned the default instead.

                Call: pendingCount()
                """)
    }

    @Test func aThrowingStubOnAMethodThatCannotThrowIsReported() {
        let spy = Fixtures.FeedbackServiceSpy()
        spy.calls.stub("pendingCount()", throwing: Fixtures.MultipleFormLoadError())
        var count = -1
        let issue = expectOneIssue(fileID: Fixtures.fileID, line: Fixtures.FeedbackServiceSpy.pendingCountLine) {
            count = spy.pendingCount()
        }
        #expect(count == 0)
        #expect(
            issue?.message.hasPrefix(
                "The stub for pendingCount() threw MultipleFormLoadError(), but the spy records it with record(default:arguments:), which cannot throw"
            ) == true)
    }
}
