import Foundation
import Tally
import TallySpy
import TallyTestSupport
import Testing

/// A generated spy under load, at full size in the test step and a tenth of it (`stressCount`) under
/// ThreadSanitizer (.ci/run's step `swift test --traits Delivery --sanitize=thread --filter "…|SpyConcurrency"`),
/// where a data race fails the run even when every expectation holds. With the SpyMacro trait the spies
/// are the macro's; without it (that step, a plain `swift test`), its committed expansion
/// (Fixtures/StressSpies+Expanded.swift).
@Suite struct SpyConcurrencyTests {
    @Test func eightThreadsMakingTwoHundredThousandCallsEachLoseNothing() async throws {
        let threads = 8
        let callsPerThread = stressCount(200_000)
        let ticker = TickerSpy()
        await onNewThreads(threads) { thread in
            for index in 0..<callsPerThread {
                ticker.tick(thread: thread, index: index)
            }
        }

        #expect(ticker.expectCount(threads * callsPerThread, of: .tick))
        let recorded = ticker.calls
        #expect(recorded.count == threads * callsPerThread)
        // Each thread's calls are all there, in the order that thread made them.
        var next = [Int](repeating: 0, count: threads)
        for call in recorded {
            let thread = try #require(call.arguments[0].value?.intValue)
            let index = try #require(call.arguments[1].value?.intValue)
            guard index == next[thread] else {
                Issue.record("thread \(thread): call \(index) recorded where \(next[thread]) was due")
                return
            }
            next[thread] += 1
        }
        #expect(next == [Int](repeating: callsPerThread, count: threads))
        ticker.expectNothingElse()
    }

    @Test func genericAndInoutMembersUnderEightThreadsStayExact() async throws {
        let threads = 8
        let callsPerThread = stressCount(10_000)
        let accumulator = AccumulatorSpy()
        accumulator.stub(.fold) { (total: SpyInout<Int>, thread: Int) in total.value += thread + 1 }
        await onNewThreads(threads) { thread in
            var total = 0
            for index in 0..<callsPerThread {
                accumulator.add(index, thread: thread)
                accumulator.fold(&total, thread: thread)
            }
            #expect(total == callsPerThread * (thread + 1))
        }

        #expect(accumulator.expectCount(threads * callsPerThread, of: .add))
        #expect(accumulator.expectCount(threads * callsPerThread, of: .fold))
        // Each fold recorded the total it was given and the one it wrote back, per thread in order.
        var totals = [Int](repeating: 0, count: threads)
        for call in accumulator.calls(to: .fold) {
            let thread = try #require(call.arguments[1].value?.intValue)
            let before = try #require(call.arguments[0].value?.intValue)
            guard before == totals[thread], call.written == [0: .value(.int(before + thread + 1))] else {
                Issue.record("thread \(thread): \(call) where \(totals[thread]) was due")
                return
            }
            totals[thread] = before + thread + 1
        }
        #expect(totals == (0..<threads).map { callsPerThread * ($0 + 1) })
        accumulator.expectNothingElse()
    }

    @Test func stubbingExpectingAndWaitingWhileOtherThreadsCall() async {
        let ticker = TickerSpy(mode: .relaxed)
        let unexpected = LockedBox<[Int]>([])
        let perThread = 5_000
        await onNewThreads(6) { thread in
            switch thread {
            case 0..<3:
                for index in 0..<perThread {
                    let value = ticker.value(index)
                    if ![0, 1, 2].contains(value) { unexpected.set(unexpected.value + [value]) }
                }
            case 3:
                for index in 0..<perThread {
                    ticker.stub(.value, returning: index.isMultiple(of: 2) ? 1 : 2)
                }
            case 4:
                for index in 0..<200 {
                    _ = ticker.calls(to: .value(index)).count
                    ticker.expectCalls(inOrder: [])
                    ticker.stub(.value(index), returning: 1)
                }
            default:
                for index in 0..<perThread {
                    ticker.tick(thread: thread, index: index)
                }
            }
        }
        #expect(unexpected.value.isEmpty)
        #expect(ticker.expectCount(3 * perThread, of: .value))
        #expect(ticker.expectCount(perThread, of: .tick))
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func waitingForCallsMadeOnOtherThreads() async {
        let ticker = TickerSpy()
        let started = Task { await ticker.waitForCalls(8_000, of: .tick, timeout: .seconds(60)) }
        await onNewThreads(8) { thread in
            for index in 0..<1_000 { ticker.tick(thread: thread, index: index) }
        }
        #expect(await started.value)
    }
}
