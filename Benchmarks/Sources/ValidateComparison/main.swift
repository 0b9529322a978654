import Foundation
import Tally

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
// `tally validate` alone.

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

    init(_ arguments: [String]) {
        var remaining = arguments.dropFirst()
        while let flag = remaining.popFirst() {
            switch flag {
            case "--skip-python": skipPython = true
            default:
                guard let value = remaining.popFirst() else { fail("\(flag) needs a value") }
                switch flag {
                case "--tally": tally = value
                case "--python": python = value
                case "--script": script = value
                case "--events": sizes = value.split(separator: ",").compactMap { Int($0) }
                case "--runs": runs = max(1, Int(value) ?? 3)
                case "--folder": folder = value
                default: fail("unknown option \(flag)")
                }
            }
        }
    }
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

print(
    "| events | file | tally validate: wall, CPU, peak RSS | jsonschema-rs: wall, CPU, peak RSS | ratio (wall) | ratio (CPU) |"
)
print("|---:|---:|---|---|---:|---:|")
for size in options.sizes {
    let recording = folder.appendingPathComponent("recording-\(size).jsonl")
    let failing = try ValidationFixture.writeRecording(events: size, to: recording)
    let bytes = (try FileManager.default.attributesOfItem(atPath: recording.path)[.size] as? Int) ?? 0

    var tally: [Measurement] = []
    var python: [Measurement] = []
    for _ in 0..<options.runs {
        let run = try measure([options.tally, "validate", "--plan", plan.path, recording.path], in: folder)
        let summary = "Checked \(size) events from 1 recording: "
        guard run.output.contains(summary), run.output.contains(" in \(failing) events\n") else {
            fail("tally validate did not find the \(failing) failing events:\n\(run.output.suffix(300))")
        }
        tally.append(run)
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
    let wallRatio =
        python.isEmpty ? "-" : String(format: "%.2f×", median(python.map(\.wall)) / median(tally.map(\.wall)))
    let cpuRatio = python.isEmpty ? "-" : String(format: "%.2f×", median(python.map(\.cpu)) / median(tally.map(\.cpu)))
    print("| \(size) | \(bytes / 1_000_000) MB | \(cell(tally)) | \(cell(python)) | \(wallRatio) | \(cpuRatio) |")
    if options.folder == nil { try FileManager.default.removeItem(at: recording) }
}
