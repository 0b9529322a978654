import BenchmarkSupport
import Foundation
import Tally

// A plain executable for profilers (perf, valgrind): tracks COUNT events through the same client as the
// end-to-end benchmark (two processors, counting destinations, blocking queues), or through the naive
// reference, and prints the throughput and CPU time. Not a benchmark: timed figures come from
// `swift package benchmark`; instruction counts come from running this under callgrind for two counts and
// subtracting (BENCHMARKS.md, "Instruction counts"; Benchmarks/Scripts/track-budget.sh checks issue 39's
// budget that way).
//
//     swift build -c release --package-path Benchmarks --product ClientProfile
//     Benchmarks/.build/release/ClientProfile client 1000000
//     Benchmarks/.build/release/ClientProfile client --destinations 4 --properties 50 1000000
//     Benchmarks/.build/release/ClientProfile client --destinations 1 --processors 0 --consent on 1000000
//     Benchmarks/.build/release/ClientProfile reference --destinations 1 --properties 50 1000000
//     Benchmarks/.build/release/ClientProfile caller-time --destinations 1 --processors 0 --budget 1.5
//     valgrind --tool=callgrind --separate-threads=yes Benchmarks/.build/release/ClientProfile client 100000
//     perf record -g Benchmarks/.build/release/ClientProfile client 1000000
//
// Options: `--destinations N` (default 3; the reference calls as many closures), `--properties 5|50`
// (default 5), `--processors 0|2` (default 2: super properties and context), `--consent on|off` (default
// off; on: `.analytics` required and granted, so every event passes the consent gate). The mode is `client`
// when omitted.
//
// `caller-time` measures the caller's CPU time (its thread's, per event) in one run, client and reference
// taking turns: ROUNDS (default 200) rounds of a burst of 1,000 events each, the client in the default
// configuration (its queues hold 10,000 events and drop the newest when full; each burst starts with the
// client idle, so nothing is dropped, which the run checks). It prints the medians and their ratio, and
// exits with status 1 when `--budget R` is given and the ratio is over R.

var arguments = Array(CommandLine.arguments.dropFirst())
var mode = "client"
if let first = arguments.first, ["client", "reference", "caller-time"].contains(first) {
    mode = first
    arguments.removeFirst()
}
func option(_ name: String, default value: String, in arguments: inout [String]) -> String {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return value }
    let found = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
    return found
}
let destinationCount = Int(option("--destinations", default: "3", in: &arguments)) ?? 0
let properties = Int(option("--properties", default: "5", in: &arguments)) ?? 0
let processorCount = Int(option("--processors", default: "2", in: &arguments)) ?? -1
let consentOption = option("--consent", default: "off", in: &arguments)
let budget = Double(option("--budget", default: "0", in: &arguments)) ?? -1
let count = arguments.first.flatMap { Int($0) } ?? (mode == "caller-time" ? 200 : 1_000_000)
guard destinationCount >= 1, properties == 5 || properties == 50, processorCount == 0 || processorCount == 2,
    consentOption == "on" || consentOption == "off", budget >= 0, count >= 1
else {
    print(
        """
        usage: ClientProfile [client|reference|caller-time] [--destinations N>=1] [--properties 5|50] \
        [--processors 0|2] [--consent on|off] [--budget RATIO] [COUNT or ROUNDS]
        """)
    exit(2)
}
let consent = consentOption == "on"

if mode == "caller-time" {
    callerTime(rounds: count)
    exit(0)
}

let clock = ContinuousClock()
let cpuBefore = ProcessCPU.now()
let start = clock.now
var tracked = start
switch mode {
case "reference":
    let reference = NaiveReference.make(destinations: destinationCount)
    for index in 0..<count {
        reference.send(SampleEvent.make(properties: properties, index))
    }
    tracked = clock.now
default:
    let fixture = ClientFixture(
        buffering: Buffering(capacity: 10_000, whenFull: .block), destinationCount: destinationCount,
        processors: processorCount == 2, consent: consent)
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
let what =
    mode == "reference"
    ? "the reference (\(destinationCount) closures)"
    : "\(destinationCount) destination(s), \(processorCount) processors, consent \(consentOption)"
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

/// The caller's CPU time per event, client and reference taking turns in bursts of 1,000 events; prints the
/// medians over `rounds` rounds and their ratio, and exits with status 1 over `--budget`.
func callerTime(rounds: Int) {
    let burst = 1_000
    let reference = NaiveReference.make(destinations: destinationCount)
    let fixture = ClientFixture(
        buffering: .default, destinationBuffering: .default, destinationCount: destinationCount,
        processors: processorCount == 2, consent: consent)
    let analytics = fixture.analytics
    var client: [Int] = []
    var naive: [Int] = []
    var tracked = 0
    var index = 0
    // One unmeasured round first, so that both paths are warm.
    for round in -1..<rounds {
        var cpu = ThreadCPUTime.now()
        for _ in 0..<burst {
            reference.send(SampleEvent.make(properties: properties, index))
            index += 1
        }
        let naiveTime = ThreadCPUTime.now() - cpu
        cpu = ThreadCPUTime.now()
        for _ in 0..<burst {
            analytics.track(SampleEvent.make(properties: properties, index))
            index += 1
        }
        let clientTime = ThreadCPUTime.now() - cpu
        tracked += burst
        // Outside the measured region: the burst reaches every destination before the next one starts.
        for destination in fixture.destinations { destination.waitForCount(tracked) }
        if round >= 0 {
            naive.append(naiveTime)
            client.append(clientTime)
        }
    }
    let dropped = analytics.statistics.totalDropped
    if dropped != 0 {
        print("error: the client dropped \(dropped) events")
        exit(1)
    }
    func median(_ values: [Int]) -> Double { Double(values.sorted()[values.count / 2]) / Double(burst) }
    let ratio = median(client) / median(naive)
    let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first ?? "?"
    print(
        """
        caller-time, \(properties) properties, \(destinationCount) destination(s), \(processorCount) processors, \
        consent \(consentOption), \(rounds) rounds of \(burst) events (load average \(load)):
          reference \(String(format: "%.0f", median(naive))) ns per event, client's caller \
        \(String(format: "%.0f", median(client))) ns per event (thread CPU, medians): \(String(format: "%.2f", ratio))x
        """)
    if budget > 0 {
        if ratio > budget {
            print("budget missed: \(String(format: "%.2f", ratio))x is over \(budget)x")
            exit(1)
        }
        print("budget met: \(String(format: "%.2f", ratio))x is within \(budget)x")
    }
}
