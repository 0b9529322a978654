import Foundation
import Tally
import TallyTestSupport
import TallyTesting
import Testing

/// Runs under ThreadSanitizer in CI (`swift test --sanitize=thread --filter Concurrency`).
@Suite struct CallRecorderConcurrencyTests {
    @Test func eightThreadsRecordingTwoHundredThousandCallsEachLoseNothing() async throws {
        let threads = 8
        let callsPerThread = stressCount(200_000)
        let calls = CallRecorder()
        await onNewThreads(threads) { thread in
            for index in 0..<callsPerThread {
                calls.record("tick(thread:index:)", arguments: thread, index)
            }
        }

        let recorded = calls.all
        #expect(recorded.count == threads * callsPerThread)
        #expect(calls.count(to: "tick(thread:index:)") == threads * callsPerThread)
        // Each thread's calls are all there, in the order that thread made them, and `order` follows the
        // recorder's order.
        var next = [Int](repeating: 0, count: threads)
        var previousOrder = Int.min
        for call in recorded {
            let thread = try #require(call.arguments[0].value?.intValue)
            let index = try #require(call.arguments[1].value?.intValue)
            guard index == next[thread] else {
                Issue.record("thread \(thread): call \(index) recorded where \(next[thread]) was due")
                return
            }
            next[thread] += 1
            guard call.order > previousOrder else {
                Issue.record("order \(call.order) after \(previousOrder)")
                return
            }
            previousOrder = call.order
        }
        #expect(next == [Int](repeating: callsPerThread, count: threads))
    }

    @Test func stubbingReadingAndExpectingWhileOtherThreadsRecord() async {
        let calls = CallRecorder(mode: .relaxed)
        let unexpected = CallRecordingFixtures.LockedIssues()
        let perThread = 5_000
        await onNewThreads(6) { thread in
            switch thread {
            case 0..<3:
                for index in 0..<perThread {
                    let value = calls.record("value(_:)", default: -1, arguments: index)
                    if ![-1, 1, 2].contains(value) {
                        unexpected.append(.init(message: "answer \(value)", fileID: "", line: 0, column: 0))
                    }
                }
            case 3:
                for index in 0..<perThread {
                    calls.stub("value(_:)", returning: index.isMultiple(of: 2) ? 1 : 2)
                }
            case 4:
                for _ in 0..<200 {
                    _ = calls.all.count
                    _ = calls.count(to: "value(_:)")
                    calls.expectCalls(inOrder: [])
                }
            default:
                for _ in 0..<200 {
                    CallRecorder.withCurrent(calls) { CallRecorder.current.record("static()") }
                }
            }
        }
        #expect(unexpected.all.isEmpty)
        #expect(calls.count(to: "value(_:)") == 3 * perThread)
        #expect(calls.count(to: "static()") == 200)
    }

    @Test func recordersInstalledByManyTasksAtOnceStayApart() async {
        let recorders = (0..<16).map { _ in CallRecorder() }
        await withTaskGroup(of: Void.self) { group in
            for (task, recorder) in recorders.enumerated() {
                group.addTask {
                    await CallRecorder.withCurrent(recorder) {
                        for index in 0..<1_000 {
                            CallRecorder.current.record("tick(task:index:)", arguments: task, index)
                            if index.isMultiple(of: 100) { await Task.yield() }
                        }
                    }
                }
            }
        }
        for (task, recorder) in recorders.enumerated() {
            #expect(recorder.all.map(\.arguments) == (0..<1_000).map { [.value(.int(task)), .value(.int($0))] })
        }
    }
}
