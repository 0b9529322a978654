// Fuzzes the recording readers: RecordingFile(bytes:) over JSON Lines (RecordingLines.decodeRecords, the one
// decoding loop of every recording reader), Record(line:), Record.event(fromLine:) and RecordingFile(output:).
//
// Properties (RecordingFile's documentation):
// 1. Reading never crashes.
// 2. No line is dropped silently: every complete line that is not blank (spaces, tabs and carriage returns
//    only) is a record or a problem naming its line; a last line without its newline is left out and
//    reported as `incompleteTail`, and `completeBytes` ends at the last newline.
// 3. A record read from a line is written (Record.line) and read again to an equal record, and its line is
//    a fixed point; the fast event reader (Record.event(fromLine:)) reads the same event as Record(line:).
import Foundation
import FuzzDriver
@testable import Tally

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let file = RecordingFile(bytes: bytes, file: "fuzz.jsonl")

    // Every complete, non-blank line is accounted for, in order.
    let complete = bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
    precondition(file.completeBytes == complete, "completeBytes \(file.completeBytes), not \(complete)")
    precondition(file.incompleteTail == (complete < size), "incompleteTail is wrong")
    var lines: [Int] = []
    var number = 0
    for line in bytes[..<complete].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
        number += 1
        if line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) { lines.append(number) }
    }
    precondition(
        file.records.count + file.problems.count == lines.count,
        "\(lines.count) lines, but \(file.records.count) records and \(file.problems.count) problems")
    for problem in file.problems {
        precondition(problem.file == "fuzz.jsonl" && problem.line.map(lines.contains) == true, "\(problem)")
        precondition(!problem.message.isEmpty)
    }
    precondition(
        zip(file.problems, file.problems.dropFirst()).allSatisfy { $0.line! < $1.line! }, "problems out of order")

    // Round trip of every record.
    for record in file.records {
        let line = record.line
        let again: Record
        do {
            again = try Record(line: line)
        } catch {
            fatalError("a written record does not read: \(error): \(String(decoding: line, as: UTF8.self))")
        }
        precondition(again == record, "written and read again, \(record) became \(again)")
        precondition(again.line == line, "a record's line is not a fixed point")
        let event = line.withUnsafeBufferPointer { try? Record.event(fromLine: $0) }
        precondition(event == record.event, "Record.event(fromLine:) reads \(String(describing: event))")
    }

    // The whole input as one line, and as mixed output.
    if let record = try? Record(line: bytes) {
        precondition((try? Record.event(fromLine: bytes)) == record.event, "the fast event reader disagrees")
    }
    _ = RecordingFile(output: String(decoding: bytes, as: UTF8.self))
    return 0
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
