import Foundation
import Tally

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The writer the recording fault tests start and kill: appends COUNT records to FILE through a
// FileRecordingSink, each with a property of LINE_BYTES bytes (and its index, unless the lines are of
// 64 KiB or more), and after each one writes its index and a newline to standard output, so the test knows
// how far it got.
//
//     RecordingWriterFixture FILE SOURCE COUNT LINE_BYTES

let arguments = CommandLine.arguments
guard arguments.count == 5, let count = Int(arguments[3]), let lineBytes = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: RecordingWriterFixture FILE SOURCE COUNT LINE_BYTES\n".utf8))
    exit(64)
}
let source = arguments[2]
do {
    let sink = try FileRecordingSink(url: URL(fileURLWithPath: arguments[1]))
    // Lines of 64 KiB and more are encoded once (index 0) and written again and again, so the writer spends
    // its time in `write`, where the kills should find it, rather than encoding.
    func record(_ index: Int) -> Record {
        Record(
            envelope: Envelope(
                event: Event(
                    "written", ["index": .int(index), "padding": .string(String(repeating: "x", count: lineBytes))]),
                messageId: MessageID(prefix: 7, sequence: UInt64(index)), timestamp: Date(timeIntervalSince1970: 0),
                anonymousId: "writer"),
            source: source)
    }
    let reused = lineBytes >= 64 * 1024 ? record(0) : nil
    let reusedLine = reused?.line
    for index in 0..<count {
        let record = reused ?? record(index)
        try sink.write(record, line: reusedLine ?? record.line)
        let progress = Array("\(index)\n".utf8)
        _ = progress.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }
} catch {
    FileHandle.standardError.write(Data("RecordingWriterFixture: \(error)\n".utf8))
    exit(1)
}
