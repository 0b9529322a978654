import Foundation
import Tally
import TallyPlan

/// What the value scan adds to validating an event (`PlanValidator.scansUnmarkedValues`, on in `tally
/// validate`), measured in process on events decoded from the recording: the same events validated by a
/// validator without the scan and by one with it, in alternating rounds, each round's thread CPU time; the
/// ratio of the fastest rounds. The fixture's events hold strings, none of which looks like personal data
/// (its e-mail property is marked personal, which the scan skips), so the scan reads and finds nothing: the
/// usual case, and the one the budget is about.
enum ScanCost {
    struct Result {
        var events: Int
        var plainNanoseconds: Double
        var scanningNanoseconds: Double
        var ratio: Double { scanningNanoseconds / plainNanoseconds }

        var summary: String {
            String(
                format:
                    "value scan, %d events decoded from the recording, fastest of the rounds: %.0f ns per event validated without the scan, %.0f ns with it: %.2f×",
                events, plainNanoseconds, scanningNanoseconds, ratio)
        }
    }

    static func measure(planYAML: String, recording: URL, events count: Int = 50_000, rounds: Int = 9) throws -> Result
    {
        let plan = try TrackingPlan(text: planYAML)
        let handle = try FileHandle(forReadingFrom: recording)
        defer { try? handle.close() }
        let data = try handle.read(upToCount: count * 1024) ?? Data()
        var events: [Event] = []
        events.reserveCapacity(count)
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            while events.count < count, let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                events.append(try Record.event(fromLine: UnsafeBufferPointer(rebasing: bytes[start..<end])))
                start = end + 1
            }
        }
        let plain = PlanValidator(plan: plan)
        let scanning = PlanValidator(plan: plan, scansUnmarkedValues: true)
        func violations(_ validator: PlanValidator) -> Int {
            events.reduce(0) { $0 + validator.validate($1).count }
        }
        // Nothing to find: the scan must report nothing more.
        let expected = violations(plain)
        guard violations(scanning) == expected else {
            fail(
                "the value scan found something in the fixture's events; the scan's cost is measured where it finds nothing"
            )
        }
        var best = (plain: Double.infinity, scanning: Double.infinity)
        for _ in 0..<rounds {
            best.plain = min(best.plain, threadCPUSeconds { _ = violations(plain) })
            best.scanning = min(best.scanning, threadCPUSeconds { _ = violations(scanning) })
        }
        return Result(
            events: events.count, plainNanoseconds: best.plain / Double(events.count) * 1e9,
            scanningNanoseconds: best.scanning / Double(events.count) * 1e9)
    }

    /// The CPU time the calling thread spends in `body`, in seconds.
    static func threadCPUSeconds(_ body: () -> Void) -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let start = now()
        body()
        return now() - start
    }
}
