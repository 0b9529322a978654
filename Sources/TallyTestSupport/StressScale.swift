import Foundation

/// How many iterations a stress test runs: `full`, scaled by the `TALLY_STRESS_SCALE` environment variable.
///
/// The stress suites prove two things: nothing is lost or reordered at full size (the plain test run, where
/// the variable is unset and every loop keeps its full count), and no two threads touch shared state
/// without synchronisation (the ThreadSanitizer run in `.ci/run`, which sets `TALLY_STRESS_SCALE=0.1`).
/// ThreadSanitizer reports a race on the first unsynchronised pair of accesses it sees, so it needs the
/// threads to overlap, not 200,000 calls each; instrumented, the full counts cost it minutes.
///
/// A value that is not a number in (0, 1] stops the run with the reason rather than being ignored.
/// The result is never below `minimum`, so every thread still overlaps the others.
package func stressCount(_ full: Int, minimum: Int = 1_000) -> Int {
    guard let text = ProcessInfo.processInfo.environment["TALLY_STRESS_SCALE"], !text.isEmpty else {
        return full
    }
    guard let scale = Double(text), scale > 0, scale <= 1 else {
        fatalError("TALLY_STRESS_SCALE=\(text): expected a number in (0, 1], e.g. 0.1")
    }
    return max(min(full, minimum), Int((Double(full) * scale).rounded()))
}
