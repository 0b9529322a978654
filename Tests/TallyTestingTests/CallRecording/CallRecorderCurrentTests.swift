import Dispatch
import Foundation
import Tally
import TallyTesting
import Testing

private typealias Fixtures = CallRecordingFixtures
private typealias SDK = Fixtures.ThirdPartySpy

/// Static-method SDKs record into the recorder the running test installed, and tests that run at the same
/// time never see each other's calls.
@Suite struct CallRecorderCurrentTests: CallRecordingSuite {
    @Test func aStaticSpyRecordsIntoTheCurrentRecorder() {
        let sdk = CallRecorder()
        sdk.stub("isFormCached(_:)", returning: false)
        CallRecorder.withCurrent(sdk) {
            Fixtures.FeedbackLoader<SDK>().load("some-id")
        }
        sdk.expectCalls(inOrder: [
            .call("isFormCached(_:)", with: "some-id"), .call("loadFeedbackForm(_:)", with: "some-id"),
        ])
        sdk.expectNothingElse()
    }

    @Test func stubsOnTheCurrentRecorderAnswerStaticCalls() {
        let sdk = CallRecorder()
        sdk.stub("isFormCached(_:)", returning: true)
        CallRecorder.withCurrent(sdk) {
            Fixtures.FeedbackLoader<SDK>().load("some-id")
        }
        sdk.expectNotCalled("loadFeedbackForm(_:)")
    }

    @Test func withCurrentReturnsAndRethrows() throws {
        let sdk = CallRecorder()
        let value = CallRecorder.withCurrent(sdk) { 42 }
        #expect(value == 42)
        #expect(throws: Fixtures.MultipleFormLoadError.self) {
            try CallRecorder.withCurrent(sdk) { throw Fixtures.MultipleFormLoadError() }
        }
    }

    @Test func theInnermostRecorderWinsAndTheOuterOneComesBack() {
        let outer = CallRecorder()
        let inner = CallRecorder()
        CallRecorder.withCurrent(outer) {
            SDK.loadFeedbackForm("1")
            CallRecorder.withCurrent(inner) { SDK.loadFeedbackForm("2") }
            SDK.loadFeedbackForm("3")
        }
        #expect(outer.all.map(\.arguments) == [["1"], ["3"]])
        #expect(inner.all.map(\.arguments) == [["2"]])
    }

    @Test func aStaticCallWithNoCurrentRecorderIsReportedAtTheSpy() {
        #expect(!CallRecorder.hasCurrent)
        let issue = expectOneIssue(fileID: Fixtures.fileID, line: SDK.loadFeedbackFormLine) {
            SDK.loadFeedbackForm("some-id")
        }
        #expect(
            issue?.message.hasPrefix(
                """
                Static call to loadFeedbackForm(_:) with no current CallRecorder: the call was not recorded.

                Call: loadFeedbackForm("some-id")

                Run the code under test inside CallRecorder.withCurrent(recorder) { ... }.
                """) == true)
        #expect(issue?.message.contains("route the static API through an instance adapter") == true)
    }

    @Test func aReturningStaticCallWithNoCurrentRecorderReportsOnceAndReturnsTheDefault() {
        var cached = true
        let issue = expectOneIssue(fileID: Fixtures.fileID, line: SDK.isFormCachedLine) {
            cached = SDK.isFormCached("some-id")
        }
        #expect(!cached)
        #expect(issue?.message.hasPrefix("Static call to isFormCached(_:) with no current CallRecorder") == true)
    }

    // MARK: Tasks and threads

    @Test func asyncCodeChildTasksAndUnstructuredTasksSeeTheRecorder() async {
        let sdk = CallRecorder()
        await CallRecorder.withCurrent(sdk) {
            await Task.yield()
            SDK.loadFeedbackForm("after a suspension")
            await withTaskGroup(of: Void.self) { group in
                group.addTask { SDK.loadFeedbackForm("child task") }
            }
            await Task { SDK.loadFeedbackForm("unstructured task") }.value
        }
        CallRecorder.withCurrent(sdk) { SDK.loadFeedbackForm("synchronous scope in async code") }
        #expect(
            Set(sdk.all.map(\.arguments)) == [
                ["after a suspension"], ["child task"], ["unstructured task"], ["synchronous scope in async code"],
            ])
    }

    /// The limit of a task-local value: code the test does not run in its task tree sees no recorder. Such
    /// SDKs go through an instance adapter instead (see the RecordingCalls article).
    @Test func detachedTasksAndOtherThreadsDoNotSeeTheRecorder() async {
        let sdk = CallRecorder()
        await CallRecorder.withCurrent(sdk) {
            #expect(CallRecorder.hasCurrent)
            #expect(await Task.detached { CallRecorder.hasCurrent }.value == false)
            let onQueue = await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: CallRecorder.hasCurrent) }
            }
            #expect(onQueue == false)
        }
    }

    // MARK: Concurrent tests

    /// Two scopes take turns, each still inside its `withCurrent` while the other records: every call lands
    /// in its own scope's recorder.
    @Test func twoScopesRunningAtTheSameTimeSeeOnlyTheirOwnCalls() async {
        let (firstTurns, firstTurn) = AsyncStream.makeStream(of: Void.self)
        let (secondTurns, secondTurn) = AsyncStream.makeStream(of: Void.self)
        let first = CallRecorder()
        let second = CallRecorder()
        async let a: Void = CallRecorder.withCurrent(first) {
            var turns = firstTurns.makeAsyncIterator()
            for index in 0..<3 {
                SDK.loadFeedbackForm("first-\(index)")
                secondTurn.yield()
                await turns.next()
            }
        }
        async let b: Void = CallRecorder.withCurrent(second) {
            var turns = secondTurns.makeAsyncIterator()
            for index in 0..<3 {
                await turns.next()
                SDK.loadFeedbackForm("second-\(index)")
                firstTurn.yield()
            }
        }
        _ = await (a, b)

        first.expectCalls(inOrder: (0..<3).map { .call("loadFeedbackForm(_:)", with: "first-\($0)") })
        second.expectCalls(inOrder: (0..<3).map { .call("loadFeedbackForm(_:)", with: "second-\($0)") })
        first.expectNothingElse()
        second.expectNothingElse()
        // The calls really alternated: first-0, second-0, first-1, second-1, ...
        let orders = zip(first.all, second.all).flatMap { [$0.order, $1.order] }
        #expect(orders == orders.sorted())
    }

    /// Swift Testing runs these cases in parallel, all through the same static spy type.
    @Test(arguments: 0..<8)
    func parallelTestsUsingTheSameStaticSpyKeepTheirOwnCalls(test: Int) async {
        let sdk = CallRecorder()
        await CallRecorder.withCurrent(sdk) {
            for index in 0..<200 {
                SDK.loadFeedbackForm("test-\(test)-\(index)")
                if index.isMultiple(of: 10) { await Task.yield() }
            }
        }
        sdk.expectCount(200, of: "loadFeedbackForm(_:)")
        #expect(sdk.all.map(\.arguments) == (0..<200).map { [.value(.string("test-\(test)-\($0)"))] })
    }
}
