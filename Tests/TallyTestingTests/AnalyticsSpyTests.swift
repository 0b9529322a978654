import Foundation
import Tally
import TallyTestSupport
import TallyTesting
import Testing

struct AnalyticsSpyTests {
    @Test func recordsWhatTheAppSaidInOrder() {
        let spy = AnalyticsSpy()
        spy.screen("Menu")
        spy.track("menu_item_ordered", ["item_name": "Pizza"])
        spy.identify(userId: "u1", traits: ["plan": "pro"])
        #expect(
            spy.events == [
                .screen("Menu"), Event("menu_item_ordered", ["item_name": "Pizza"]),
                .identify(userId: "u1", traits: ["plan": "pro"]),
            ])
    }

    @Test func copiesShareTheRecording() {
        let spy = AnalyticsSpy()
        let copy = spy
        let asProtocol: any AnalyticsTracking = copy
        asProtocol.track("from_the_copy")
        #expect(spy.events == [Event("from_the_copy")])
    }

    @Test func resetIsCountedAndClearForgets() {
        let spy = AnalyticsSpy()
        spy.track("a")
        spy.reset()
        spy.reset()
        #expect(spy.resetCount == 2)
        #expect(spy.events.count == 1)
        spy.clear()
        #expect(spy.events.isEmpty)
        #expect(spy.resetCount == 0)
    }

    @Test func envelopesAreStampedWithTheInjectedClockAndASequence() {
        let date = Date(timeIntervalSince1970: 1_000)
        let spy = AnalyticsSpy(now: { date })
        spy.track("a")
        spy.track("b")
        #expect(spy.log.envelopes.map(\.timestamp) == [date, date])
        #expect(spy.log.envelopes.map(\.messageId.sequence) == [1, 2])
    }
}

/// CI runs this suite under ThreadSanitizer (`--filter Concurrency`).
struct SpyConcurrencyTests {
    @Test func eightThreadsRecordingTwoHundredThousandEventsEachGiveExactCounts() async {
        let spy = AnalyticsSpy()
        let threads = 8
        let perThread = stressCount(200_000)
        await onNewThreads(threads) { thread in
            for index in 0..<perThread {
                spy.track("e", ["thread": .int(thread), "index": .int(index)])
            }
        }
        let events = spy.events
        #expect(events.count == threads * perThread)
        var next = [Int](repeating: 0, count: threads)
        var outOfOrder = 0
        for event in events {
            guard let thread = event.properties["thread"]?.intValue, let index = event.properties["index"]?.intValue
            else { continue }
            if next[thread] != index { outOfOrder += 1 }
            next[thread] = index + 1
        }
        #expect(outOfOrder == 0)
        #expect(next == [Int](repeating: perThread, count: threads))
    }

    @Test func expectationsCanRunWhileOtherThreadsTrack() async {
        let spy = AnalyticsSpy()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for index in 0..<2_000 { spy.track("t\(task)", ["i": .int(index)]) }
                }
            }
            group.addTask {
                for _ in 0..<50 { _ = spy.events.count }
            }
        }
        #expect(spy.expectCount(2_000, of: .named("t0")))
    }
}
