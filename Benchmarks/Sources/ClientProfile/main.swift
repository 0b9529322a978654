import BenchmarkSupport
import Foundation
import Tally

// A plain executable for profilers (perf, valgrind): tracks COUNT events through the same client as the
// end-to-end benchmark (two processors, counting destinations, blocking queues), or through the naive
// reference, and prints the throughput and CPU time. Not a benchmark: timed figures come from
// `swift package benchmark`; instruction counts come from running this under callgrind for two counts and
// subtracting (BENCHMARKS.md, "Instruction counts").
//
//     swift build -c release --package-path Benchmarks --product ClientProfile
//     Benchmarks/.build/release/ClientProfile client 1000000
//     Benchmarks/.build/release/ClientProfile client --destinations 4 --properties 50 1000000
//     Benchmarks/.build/release/ClientProfile reference --properties 50 1000000
//     valgrind --tool=callgrind --separate-threads=yes Benchmarks/.build/release/ClientProfile client 100000
//     perf record -g Benchmarks/.build/release/ClientProfile client 1000000
//
// Options: `--destinations N` (default 3), `--properties 5|50` (default 5). The mode is `client` when omitted.

var arguments = Array(CommandLine.arguments.dropFirst())
var mode = "client"
if let first = arguments.first, first == "client" || first == "reference" {
    mode = first
    arguments.removeFirst()
}
func option(_ name: String, default value: Int, in arguments: inout [String]) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let parsed = Int(arguments[index + 1])
    else { return value }
    arguments.removeSubrange(index...(index + 1))
    return parsed
}
let destinationCount = option("--destinations", default: 3, in: &arguments)
let properties = option("--properties", default: 5, in: &arguments)
let count = arguments.first.flatMap { Int($0) } ?? 1_000_000
guard destinationCount >= 1, properties == 5 || properties == 50 else {
    print("usage: ClientProfile [client|reference] [--destinations N>=1] [--properties 5|50] [COUNT]")
    exit(2)
}

let clock = ContinuousClock()
let cpuBefore = ProcessCPU.now()
let start = clock.now
var tracked = start
switch mode {
case "reference":
    let reference = NaiveReference.make()
    for index in 0..<count {
        reference.send(SampleEvent.make(properties: properties, index))
    }
    tracked = clock.now
default:
    let fixture = ClientFixture(
        buffering: Buffering(capacity: 10_000, whenFull: .block), destinationCount: destinationCount)
    for index in 0..<count {
        fixture.analytics.track(SampleEvent.make(properties: properties, index))
    }
    tracked = clock.now
    // Waits on the destinations' counts rather than flushing: an `await flush()` at the top level crashed
    // valgrind 3.19 here, and a `Task` started from synchronous top-level code runs on the main actor, which
    // this thread would be blocking while it waits.
    for destination in fixture.destinations { destination.waitForCount(count) }
    let dropped = fixture.analytics.statistics.totalDropped
    if dropped != 0 {
        print("error: the client dropped \(dropped) events")
        exit(1)
    }
}
let end = clock.now
let cpu = ProcessCPU.now() - cpuBefore

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

let total = seconds(end - start)
let what = mode == "reference" ? "the reference" : "\(destinationCount) destination(s)"
print(
    """
    \(mode), \(properties) properties, \(count) events: tracked in \(seconds(tracked - start)) s, \
    delivered to \(what) in \(total) s (\(Int(Double(count) / total)) events/s)
    CPU: user \(cpu.user) s, system \(cpu.system) s (\(Int((cpu.user + cpu.system) / Double(count) * 1e9)) ns per event)
    """)

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
