import Foundation

/// A destination that writes every event it receives as a ``Record``, so another process (a UI test, a
/// coverage run) can read what the app tracked.
///
/// Switch it on with one call at app start. It is off unless the environment asks for it:
///
/// ```swift
/// var destinations: [any Destination] = [FirebaseDestination(sdk: FirebaseAnalytics.Analytics.self)]
/// if let recording = try RecordingDestination.fromEnvironment() { destinations.append(recording) }
/// let analytics = AnalyticsClient(destinations: destinations)
/// ```
///
/// A test then launches the app with `TALLY_RECORD=/tmp/run/app.jsonl` and reads the file with
/// `RecordingReader` from TallyTesting.
///
/// Each record says where it came from: `source` (the process, by default) and `origin`, the file and line
/// that created the destination (the app's line above), so that `tally validate` and `tally coverage` name
/// it beside a violation.
public struct RecordingDestination: Destination {
    public let name: String
    /// Who writes the records (written into each record's `source`).
    public let source: String
    /// The file and line that created the destination, written into each record's `origin`.
    public let origin: String
    private let sink: any RecordingSink

    /// Creates a recording destination.
    ///
    /// - Parameters:
    ///   - sink: where lines go.
    ///   - source: written into each record, for example the process name.
    ///   - name: the destination's name. Default `recording`.
    ///   - filePath: with `line`, written into each record's `origin`; the caller's by default.
    ///   - line: see `filePath`.
    public init(
        sink: any RecordingSink, source: String = ProcessInfo.processInfo.processName, name: String = "recording",
        filePath: StaticString = #filePath, line: UInt = #line
    ) {
        self.sink = sink
        self.source = source
        self.name = name
        self.origin = "\(filePath):\(line)"
    }

    /// Writes the event's record.
    ///
    /// An array or object nested deeper than ``PropertyValue/maximumDepth`` (64) levels, in the
    /// properties or the context, is written as `null` (the client's ``InputLimits`` cut properties at
    /// their own, lower limit first, but processors may add values after them). Each such record reports
    /// one ``Problem/Code/nestingTooDeep`` problem, outcome ``Problem/Outcome/sanitized``, naming the
    /// first path cut, after the record is written.
    ///
    /// - Throws: what the sink throws; the client then counts the event as failed for this destination.
    public func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let record = Record(envelope: envelope, source: source, origin: origin)
        let (line, cut) = record.encodedLine()
        try sink.write(record, line: line)
        if cut > 0 {
            let paths =
                envelope.event.properties.dictionary.paths(
                    deeperThan: PropertyValue.maximumDepth, path: envelope.event.propertiesPath)
                + envelope.context.paths(deeperThan: PropertyValue.maximumDepth, path: "/context")
            context.report(
                Problem(
                    .nestingTooDeep,
                    "\(cut) array\(cut == 1 ? "" : "s") or object\(cut == 1 ? "" : "s") nested deeper than \(PropertyValue.maximumDepth) levels (PropertyValue.maximumDepth) written to the recording as null",
                    outcome: .sanitized, eventName: envelope.reportName, path: paths.first))
        }
    }

    public func flush() { sink.flush() }
}

extension RecordingDestination {
    /// The environment variable naming the file to record to, or `stderr`.
    public static let fileVariable = "TALLY_RECORD"
    /// The environment variable naming a folder where every recorder of a test run writes its own file.
    public static let folderVariable = "TALLY_RECORD_DIR"
    /// The launch argument that does what ``fileVariable`` does, followed by the path: `-tally-record PATH`.
    public static let launchArgument = "-tally-record"

    /// A recording destination if the environment or the launch arguments ask for one, else nil.
    ///
    /// In order of precedence:
    /// - `-tally-record PATH` in `arguments` (also `--tally-record PATH`), or `TALLY_RECORD=PATH`: append to
    ///   the file at PATH; `stderr` instead of a path writes to standard error.
    /// - `TALLY_RECORD_DIR=FOLDER`: append to a new file in FOLDER named after the source, the process id and
    ///   a random suffix, so several processes and spies of one test run never share a file. The folder is
    ///   created when missing.
    ///
    /// Each record's `origin` is the caller's file and line (`filePath`, `line`).
    ///
    /// - Throws: ``RecordError`` when the file cannot be opened or the argument has no path, so a
    ///   misconfigured run fails loudly instead of recording nothing.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        arguments: [String] = ProcessInfo.processInfo.arguments,
        source: String = ProcessInfo.processInfo.processName, filePath: StaticString = #filePath, line: UInt = #line
    ) throws(RecordError) -> RecordingDestination? {
        let sink: any RecordingSink
        if let index = arguments.firstIndex(where: { $0 == launchArgument || $0 == "-" + launchArgument }) {
            guard index + 1 < arguments.count, !arguments[index + 1].isEmpty else {
                throw RecordError("\(arguments[index]) needs a file path (or stderr) after it")
            }
            sink = try Self.sink(for: arguments[index + 1])
        } else if let path = environment[fileVariable], !path.isEmpty {
            sink = try Self.sink(for: path)
        } else if let folder = environment[folderVariable], !folder.isEmpty {
            sink = try FileRecordingSink(url: try runFile(in: URL(fileURLWithPath: folder), source: source))
        } else {
            return nil
        }
        return RecordingDestination(sink: sink, source: source, filePath: filePath, line: line)
    }

    /// A new file name in `folder` for one recorder of a run, creating the folder when missing.
    ///
    /// - Throws: ``RecordError`` when the folder cannot be created.
    public static func runFile(in folder: URL, source: String) throws(RecordError) -> URL {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw RecordError("Cannot create the recordings folder: \(error.localizedDescription)", file: folder.path)
        }
        let safe = String(source.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }.prefix(80))
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return folder.appendingPathComponent("\(safe.isEmpty ? "recording" : safe)-\(getpid())-\(suffix).jsonl")
    }

    private static func sink(for path: String) throws(RecordError) -> any RecordingSink {
        if path == "stderr" { return StandardErrorRecordingSink() }
        return try FileRecordingSink(url: URL(fileURLWithPath: path))
    }
}
