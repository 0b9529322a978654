// A sender for the kill -9 tests: tracks numbered events into an SegmentAPIDestination and prints its progress.
//
//     tally-delivery-sender <database> <endpoint> <run> <events>   # track events 1...<events> of run <run>
//     tally-delivery-sender <database> <endpoint> drain            # send what the queue holds, then exit
//
// It prints `lost N` first (events the queue reported lost when it opened), `committed N` each time the destination committed a group (the first N events of the run are
// then in the database), `done` after flushing, and `drained N` (events left queued) when draining. The
// test kills it with SIGKILL at a random line and restarts it on the same database.
#if Delivery
import Foundation
import Tally
import TallyDelivery

/// Writes one line to standard output at once (no buffer to lose in a kill).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let arguments = CommandLine.arguments
guard arguments.count >= 4, let endpoint = URL(string: arguments[2]) else {
    FileHandle.standardError.write(
        Data("usage: tally-delivery-sender <database> <endpoint> (<run> <events> | drain)\n".utf8))
    exit(2)
}
let draining = arguments[3] == "drain"
var configuration = SegmentAPIDestination.Configuration(
    endpoint: endpoint, writeKey: "kill-test", database: URL(fileURLWithPath: arguments[1]), flushAt: 20,
    requestTimeout: 5)
configuration.retry.baseDelay = 0.05
configuration.retry.maximumDelay = 0.2
// Draining retries at once: a flush during a back-off returns at once, so with one the drain loop below
// would have to wait the back-off out.
if draining { configuration.retry.baseDelay = 0 }
configuration.onCommit = { committed in say("committed \(committed)") }
let destination = SegmentAPIDestination(configuration: configuration)
// Events the queue's ledger says the file lost since the last run: a kill must never cause any.
say("lost \(destination.statistics.dropped[.storageFailed] ?? 0)")

if draining {
    // Flush until the queue is empty. The drain retries without a back-off (set above), so each flush
    // returns after one attempt, delivered or failed, and the next flush makes the next attempt.
    var rounds = 0
    while destination.statistics.queuedEvents > 0 && rounds < 200 {
        destination.flush()
        rounds += 1
    }
    say("drained \(destination.statistics.queuedEvents)")
    destination.close()
    exit(destination.statistics.queuedEvents == 0 ? 0 : 1)
}

guard let run = Int(arguments[3]), let count = Int(arguments.count > 4 ? arguments[4] : "") else { exit(2) }
let analytics = AnalyticsClient(
    destinations: [destination],
    configuration: AnalyticsClient.Configuration(
        buffering: Buffering(capacity: 1_000, whenFull: .block),
        destinationBuffering: Buffering(capacity: 1_000, whenFull: .block)))
// Bursts with short pauses between them, so commits, sends and acknowledgements interleave and a kill
// lands anywhere among them. The pause paces the sender; nothing waits on it (the test reads its output).
for n in 1...max(1, count) {
    analytics.track(
        "kill_test_event", ["run": .int(run), "n": .int(n), "padding": .string(String(repeating: "x", count: 200))])
    if n % 25 == 0 { usleep(2_000) }
}
let done = DispatchSemaphore(value: 0)
// Detached: top-level code runs on the main actor, which `done.wait()` blocks.
Task.detached {
    await analytics.flush()
    done.signal()
}
done.wait()
say("done")
destination.close()
exit(0)
#else
print("tally-delivery-sender needs the Delivery trait")
#endif
