import Tally

/// The values of the lines of recording files, read a batch at a time (decoded on every core, in bounded
/// memory), and what could not be read, ready to print as `tally validate` and `tally coverage` do.
///
/// An unreadable line, or a last line cut off without its newline, is counted and reading goes on; the
/// first ``listedPerFile`` of each file are listed with their line numbers. A file that cannot be opened
/// or read ends the reading: ``failure``.
final class RecordingSource<Value: Sendable> {
    /// How many unreadable lines of one recording are listed; the rest are counted.
    static var listedPerFile: Int { 20 }

    private let files: [String]
    private let decode: RecordingBatches<Value>.Decode
    private var fileIndex = 0
    private var batches: RecordingBatches<Value>?
    private var listedInFile = 0
    private var unreadableInFile = 0

    /// Every unreadable line, over all files.
    private(set) var unreadableLines = 0
    /// The values read, over all files.
    private(set) var valueCount = 0
    /// What to print: `file:line: message` for the listed lines, and a count of the others per file.
    private(set) var messages: [(file: String, line: Int?, message: String)] = []
    /// A file that could not be opened or read; nothing after it was read.
    private(set) var failure: RecordError?

    init(files: [String], decode: @escaping RecordingBatches<Value>.Decode) {
        self.files = files
        self.decode = decode
    }

    /// The next batch of values, in file order; nil at the end, or after a ``failure``.
    func nextBatch() -> [Value]? {
        while failure == nil {
            if batches == nil {
                guard fileIndex < files.count else { return nil }
                do {
                    batches = RecordingBatches(lines: try RecordingLines(path: files[fileIndex]), decode: decode)
                } catch {
                    failure = error
                    return nil
                }
                listedInFile = 0
                unreadableInFile = 0
            }
            guard let batches else { continue }
            do {
                if let batch = try batches.next() {
                    batch.problems.forEach(note)
                    valueCount += batch.values.count
                    return batch.values
                }
            } catch {
                failure = error
                return nil
            }
            finishFile(batches)
        }
        return nil
    }

    private func finishFile(_ batches: RecordingBatches<Value>) {
        if let cut = batches.unfinishedLine {
            note(
                RecordError(
                    "the last line is cut off: \(cut.bytes) byte\(cut.bytes == 1 ? "" : "s") without a newline (a write that did not finish); it was not read",
                    file: batches.name, line: cut.line))
        }
        if unreadableInFile > listedInFile {
            messages.append((batches.name, nil, "\(unreadableInFile - listedInFile) more unreadable lines not listed"))
        }
        self.batches = nil
        fileIndex += 1
    }

    private func note(_ problem: RecordError) {
        unreadableLines += 1
        unreadableInFile += 1
        guard listedInFile < Self.listedPerFile else { return }
        listedInFile += 1
        messages.append((problem.file ?? files[fileIndex], problem.line, problem.message))
    }

    /// Prints the messages, and the failure, to standard error; a failure sets exit code 66.
    func report(into output: inout ToolOutput, style: TerminalStyle) {
        for (file, line, message) in messages {
            output.standardError +=
                "\(style.bold("\(file):\(line.map { "\($0):" } ?? "")")) \(style.red("error:")) \(message)\n"
        }
        if let failure {
            output.standardError +=
                "\(style.bold("\(failure.file ?? files[min(fileIndex, files.count - 1)]):")) \(style.red("error:")) \(failure.message)\n"
            output.exitCode = ToolExitCode.missingInput
        }
    }
}
