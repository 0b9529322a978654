import Foundation
import Tally
import TallyPlan
import Testing

/// "Reading recordings": the article's example, on a recording with a cut last line.
@Test func theArticlesReadersReadARecording() throws {
    let url = try recordingWithACutLine()
    // A whole file, at one moment: records and the lines that are not.
    let file = try RecordingFile(contentsOf: url)
    for problem in file.problems { print(problem) }  // app.jsonl:12: Not valid JSON: …

    // Only the events, streaming, decoded on every core, in bounded memory.
    var names: [String: Int] = [:]
    let summary = try RecordingFile.readEvents(at: url) { events in
        for event in events { names[event.name, default: 0] += 1 }
    }

    #expect(file.records.count == 2)
    #expect(file.problems.count == 1)
    #expect(names == ["login_tapped": 2])
    #expect(summary.problemCount == 1)
}

/// Two records, a line that is not one, and a last line cut off.
func recordingWithACutLine() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("reading-recordings-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent("app.jsonl")
    let record = Record(
        envelope: Envelope(
            event: Event("login_tapped"), messageId: MessageID(prefix: 1, sequence: 1), timestamp: Date(),
            anonymousId: "a"))
    try Data(record.line + Array("{oops}\n".utf8) + record.line + Array(#"{"tally_record":1,"ki"#.utf8)).write(to: url)
    return url
}
