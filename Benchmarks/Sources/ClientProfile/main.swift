import BenchmarkSupport
import Foundation
import Tally

// A plain executable for profilers (perf, valgrind): tracks N events through the same client as the
// end-to-end benchmark (two processors, three counting destinations, blocking queues) and prints the
// throughput and CPU time. Not a benchmark: figures come from `swift package benchmark`.
//
//     swift build -c release --package-path Benchmarks --product ClientProfile
//     Benchmarks/.build/release/ClientProfile 1000000
//     valgrind --tool=callgrind Benchmarks/.build/release/ClientProfile 100000
//     perf record -g Benchmarks/.build/release/ClientProfile 1000000

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
let fixture = ClientFixture(buffering: Buffering(capacity: 10_000, whenFull: .block))
let clock = ContinuousClock()
let cpuBefore = ProcessCPU.now()
let start = clock.now
for index in 0..<count {
    fixture.analytics.track(SampleEvent.menuItemOrdered(index))
}
let tracked = clock.now
// Waits on the destinations' counters rather than flushing: an `await flush()` at the top level crashed
// valgrind 3.19 here, and a `Task` started from synchronous top-level code runs on the main actor, which
// this thread would be blocking while it waits.
while fixture.destinations.contains(where: { $0.count < count }) {
    usleep(100)
}
let end = clock.now
let cpu = ProcessCPU.now() - cpuBefore

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

let total = seconds(end - start)
print(
    """
    \(count) events: tracked in \(seconds(tracked - start)) s, delivered to 3 destinations in \(total) s \
    (\(Int(Double(count) / total)) events/s)
    CPU: user \(cpu.user) s, system \(cpu.system) s (\(Int((cpu.user + cpu.system) / Double(count) * 1e9)) ns per event)
    """)
let dropped = fixture.analytics.diagnostics.totalDropped
if dropped != 0 {
    print("error: the client dropped \(dropped) events")
    exit(1)
}

/// User and system CPU time of the whole process, every thread included.
struct ProcessCPU {
    var user: Double
    var system: Double

    static func now() -> ProcessCPU {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return ProcessCPU(user: seconds(usage.ru_utime), system: seconds(usage.ru_stime))
    }

    static func - (lhs: ProcessCPU, rhs: ProcessCPU) -> ProcessCPU {
        ProcessCPU(user: lhs.user - rhs.user, system: lhs.system - rhs.system)
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) * 1e-6
    }
}
