import Foundation
import Tally
import TallyPlan

// `tally validate` end to end beside jsonschema-rs, and its peak memory as recordings grow.
//
// Writes a plan of 50 events (5 to 10 properties each), the same plan as JSON Schemas, and recordings of
// each size asked for (about 300 bytes an event, 1 in 97 events breaking the plan), into a fresh temporary
// folder; then runs, in turn and `--runs` times each:
//   - `tally validate --plan plan.yaml recording.jsonl` (a release build: `--tally`),
//   - Scripts/validate_jsonschema_rs.py with the venv's Python (`--python`), which parses each line with
//     Python's json module and validates the properties with jsonschema-rs,
// each under GNU time (`/usr/bin/time`) for the wall clock, CPU time and peak resident memory. Both must
// report the same number of failing events, or the run stops. Prints a Markdown table of medians.
//
//     swift run -c release --package-path Benchmarks ValidateComparison \
//         --tally .build/release/tally --python .build/venv/bin/python --events 1000000,4000000 --runs 3
//
// `--folder DIR` keeps the files in DIR (to profile `tally validate` on them); `--skip-python` measures
// `tally validate` alone. `--baseline PATH` measures a second build of `tally` (before a change) in the
// same runs, so before and after are both ratios to the same jsonschema-rs runs.
//
// The budget (issue 39), checked when asked, the run exiting 1 when it is missed:
//   --require-wall-ratio R   jsonschema-rs's median wall time at least R times tally's (4)
//   --require-cpu-ratio R    the same for CPU time, user + system (2)
//   --max-peak-mb M          tally's peak resident memory at most M MB at every size, and at the largest
//                            size at most 1.25 times the smallest's (memory flat)
//   --max-scan-ratio R       the value scan's added cost: validating decoded events with
//                            `scansUnmarkedValues` at most R times the time without (1.25), on events where
//                            it finds nothing (the fixture's: its e-mail property is marked personal)
// `--budget` sets all four to the issue's figures (4, 2, 150, 1.25).

struct Options {
    var tally = "../.build/release/tally"
    var python = "../.build/venv/bin/python"
    var script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scripts/validate_jsonschema_rs.py").path
    var sizes = [1_000_000, 4_000_000]
    var runs = 3
    var skipPython = false
    /// Where to write the plan, the schemas and the recordings, kept afterwards (for profiling); a fresh
    /// temporary folder, removed afterwards, when nil.
    var folder: String?
    /// A second `tally` (a build before a change), measured in the same runs.
    var baseline: String?
    var requiredWallRatio: Double?
    var requiredCPURatio: Double?
    var maximumPeakMB: Double?
    var maximumScanRatio: Double?

    init(_ arguments: [String]) {
        var remaining = arguments.dropFirst()
        while let flag = remaining.popFirst() {
            switch flag {
            case "--skip-python": skipPython = true
            case "--budget":
                requiredWallRatio = 4
                requiredCPURatio = 2
                maximumPeakMB = 150
                maximumScanRatio = 1.25
            default:
                guard let value = remaining.popFirst() else { fail("\(flag) needs a value") }
                switch flag {
                case "--tally": tally = value
                case "--python": python = value
                case "--script": script = value
                case "--events": sizes = value.split(separator: ",").compactMap { Int($0) }
                case "--runs": runs = max(1, Int(value) ?? 3)
                case "--folder": folder = value
                case "--baseline": baseline = value
                case "--require-wall-ratio": requiredWallRatio = number(value, flag)
                case "--require-cpu-ratio": requiredCPURatio = number(value, flag)
                case "--max-peak-mb": maximumPeakMB = number(value, flag)
                case "--max-scan-ratio": maximumScanRatio = number(value, flag)
                default: fail("unknown option \(flag)")
                }
            }
        }
    }
}

func number(_ text: String, _ flag: String) -> Double {
    guard let value = Double(text), value > 0 else { fail("\(flag) needs a positive number, not \(text)") }
    return value
}

/// One run of a command: wall clock and CPU seconds, peak resident memory in MB, and what it printed.
struct Measurement {
    var wall: Double
    var cpu: Double
    var peakMB: Double
    var output: String
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ValidateComparison: \(message)\n".utf8))
    exit(1)
}

/// Runs `arguments` under GNU time, standard output to a file.
func measure(_ arguments: [String], in folder: URL) throws -> Measurement {
    let output = folder.appendingPathComponent("stdout.txt")
    let timing = folder.appendingPathComponent("time.txt")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    process.arguments = ["-o", timing.path, "-f", "%e %U %S %M"] + arguments
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let fields = try String(contentsOf: timing, encoding: .utf8).split(whereSeparator: \.isWhitespace).suffix(4)
        .compactMap { Double($0) }
    guard fields.count == 4 else { fail("cannot read GNU time's output for \(arguments.joined(separator: " "))") }
    return Measurement(
        wall: fields[0], cpu: fields[1] + fields[2], peakMB: fields[3] / 1024,
        output: try String(contentsOf: output, encoding: .utf8))
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let options = Options(CommandLine.arguments)
let folder =
    options.folder.map { URL(fileURLWithPath: $0) }
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("tally-validate-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { if options.folder == nil { try? FileManager.default.removeItem(at: folder) } }

let plan = folder.appendingPathComponent("plan.yaml")
let schemas = folder.appendingPathComponent("schemas.json")
try Data(ValidationFixture.planYAML.utf8).write(to: plan)
try Data(ValidationFixture.schemasJSON.utf8).write(to: schemas)

let loadBefore = loadAverage()
var missed: [String] = []
/// tally's median peak memory at each size, for the flatness check.
var peaks: [(size: Int, megabytes: Double)] = []
print("load average before: \(loadBefore)")
print(
    "| events | file | build | tally validate: wall, CPU, peak RSS | jsonschema-rs: wall, CPU, peak RSS | ratio (wall) | ratio (CPU) |"
)
print("|---:|---:|---|---|---|---:|---:|")
for size in options.sizes {
    let recording = folder.appendingPathComponent("recording-\(size).jsonl")
    let failing = try ValidationFixture.writeRecording(events: size, to: recording)
    let bytes = (try FileManager.default.attributesOfItem(atPath: recording.path)[.size] as? Int) ?? 0

    var tally: [Measurement] = []
    var baseline: [Measurement] = []
    var python: [Measurement] = []
    func runTally(_ executable: String) throws -> Measurement {
        let run = try measure([executable, "validate", "--plan", plan.path, recording.path], in: folder)
        let summary = "Checked \(size) events from 1 recording: "
        guard run.output.contains(summary), run.output.contains(" in \(failing) events\n") else {
            fail("\(executable) validate did not find the \(failing) failing events:\n\(run.output.suffix(300))")
        }
        return run
    }
    for _ in 0..<options.runs {
        // In turn, so that the machine's load falls alike on each.
        tally.append(try runTally(options.tally))
        if let before = options.baseline { baseline.append(try runTally(before)) }
        if !options.skipPython {
            let reference = try measure([options.python, options.script, schemas.path, recording.path], in: folder)
            guard reference.output.contains(#""checked": \#(size), "failing": \#(failing),"#) else {
                fail("jsonschema-rs did not find the \(failing) failing events: \(reference.output)")
            }
            python.append(reference)
        }
    }
    func cell(_ runs: [Measurement]) -> String {
        guard !runs.isEmpty else { return "-" }
        return String(
            format: "%.2f s, %.2f s, %.0f MB", median(runs.map(\.wall)), median(runs.map(\.cpu)),
            median(runs.map(\.peakMB)))
    }
    func ratios(_ runs: [Measurement]) -> (wall: Double, cpu: Double)? {
        guard !python.isEmpty, !runs.isEmpty else { return nil }
        return (
            median(python.map(\.wall)) / median(runs.map(\.wall)), median(python.map(\.cpu)) / median(runs.map(\.cpu))
        )
    }
    func row(_ label: String, _ runs: [Measurement]) {
        let ratio = ratios(runs)
        let wall = ratio.map { String(format: "%.2f×", $0.wall) } ?? "-"
        let cpu = ratio.map { String(format: "%.2f×", $0.cpu) } ?? "-"
        print("| \(size) | \(bytes / 1_000_000) MB | \(label) | \(cell(runs)) | \(cell(python)) | \(wall) | \(cpu) |")
    }
    if !baseline.isEmpty { row("before", baseline) }
    row(options.baseline == nil ? "tally" : "after", tally)

    if let ratio = ratios(tally) {
        if let required = options.requiredWallRatio, ratio.wall < required {
            missed.append(
                String(format: "%d events: wall time %.2f× jsonschema-rs's, under %.2f×", size, ratio.wall, required))
        }
        if let required = options.requiredCPURatio, ratio.cpu < required {
            missed.append(
                String(format: "%d events: CPU time %.2f× jsonschema-rs's, under %.2f×", size, ratio.cpu, required))
        }
    } else if options.requiredWallRatio != nil || options.requiredCPURatio != nil {
        missed.append("\(size) events: no jsonschema-rs runs to compare with (--skip-python)")
    }
    peaks.append((size, median(tally.map(\.peakMB))))
    if let maximum = options.maximumPeakMB, median(tally.map(\.peakMB)) > maximum {
        missed.append(
            String(format: "%d events: peak memory %.0f MB, over %.0f MB", size, median(tally.map(\.peakMB)), maximum))
    }
    if let maximum = options.maximumScanRatio, size == options.sizes.first {
        let scan = try ScanCost.measure(planYAML: ValidationFixture.planYAML, recording: recording)
        print(scan.summary)
        if scan.ratio > maximum {
            missed.append(
                String(format: "the value scan costs %.2f× the validation without it, over %.2f×", scan.ratio, maximum))
        }
    }
    if options.folder == nil { try FileManager.default.removeItem(at: recording) }
}
print("load average after: \(loadAverage())")
// Flat: the largest recording may not take more than a quarter more memory than the smallest.
if options.maximumPeakMB != nil, let first = peaks.first, let last = peaks.last, last.size > first.size,
    last.megabytes > first.megabytes * 1.25
{
    missed.append(
        String(
            format: "memory grows with the recording: %.0f MB at %d events, %.0f MB at %d", first.megabytes,
            first.size, last.megabytes, last.size))
}
if !missed.isEmpty {
    fail("the budget is missed:\n  " + missed.joined(separator: "\n  "))
}
if options.requiredWallRatio != nil || options.requiredCPURatio != nil || options.maximumPeakMB != nil
    || options.maximumScanRatio != nil
{
    print("The budget is met.")
}

/// The 1, 5 and 15 minute load averages, as /proc/loadavg says.
func loadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}
