import Foundation

extension RecordingFile {
    /// What reading a recording's events found besides the events.
    public struct Summary: Sendable, Hashable {
        /// The file read.
        public var file: String
        /// How many events were read.
        public var events = 0
        /// The first ``maximumKeptProblems`` unreadable lines, each named by its file and line, in file order.
        public var problems: [RecordError] = []
        /// How many lines were unreadable in all (``problems`` keeps the first of them).
        public var problemCount = 0
        /// The number of a last line the file ended without its newline (a write cut off), or nil.
        public var unfinishedLine: Int?

        /// How many problems ``problems`` keeps: 1,000.
        public static let maximumKeptProblems = 1000

        /// Creates an empty summary of `file`.
        public init(file: String) { self.file = file }

        mutating func add(_ new: [RecordError]) {
            problemCount += new.count
            problems += new.prefix(max(0, Self.maximumKeptProblems - problems.count))
        }
    }

    /// Reads only the events of a recording (what the app said), in file order, a batch at a time: several
    /// times faster than reading whole records, and in bounded memory whatever the size of the file.
    ///
    /// ```swift
    /// var names: [String: Int] = [:]
    /// let summary = try RecordingFile.readEvents(at: url) { events in
    ///     for event in events { names[event.name, default: 0] += 1 }
    /// }
    /// if let line = summary.unfinishedLine { print("line \(line) is cut off") }
    /// ```
    ///
    /// Lines are decoded on every core, a few chunks of about 1 MiB at a time; `body` gets each batch on
    /// the calling thread. An unreadable line is a problem in the summary and reading goes on; so is a
    /// line longer than 64 MiB, which is skipped without being held in memory.
    ///
    /// - Parameters:
    ///   - url: a recording file, FIFO or `/dev/stdin`.
    ///   - body: called with each batch of events, in file order.
    /// - Returns: the number of events and the unreadable lines.
    /// - Throws: `RecordError` when the file cannot be opened or read, or what `body` throws.
    public static func readEvents(at url: URL, _ body: ([Event]) throws -> Void) throws -> Summary {
        let batches = RecordingBatches(lines: try RecordingLines(path: url.path)) { line in
            try Record.event(fromLine: line)
        }
        var summary = Summary(file: url.path)
        while let batch = try batches.next() {
            summary.events += batch.values.count
            summary.add(batch.problems)
            try body(batch.values)
        }
        summary.unfinishedLine = batches.unfinishedLine?.line
        return summary
    }
}
