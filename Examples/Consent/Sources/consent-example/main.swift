// The consent example as a process: runs the app's scripted session (ConsentApp.runScriptedSession) and
// records what each vendor received, for a test in another process to read, as a UI test would.
//
//   TALLY_RECORD_DIR=/tmp/consent swift run --package-path Examples consent-example [--regression NAME]
//
// With TALLY_RECORD_DIR set, each vendor is a recording destination writing its own file in that folder,
// `consent-example-product-….jsonl` and `consent-example-ads-….jsonl`; with TALLY_COLLECTOR set instead (a
// `tally collect` address, as a UI-test build would), each vendor sends its records there, tagged with
// TALLY_SESSION; without either, each prints its events.
// `--regression NAME` plants one of ConsentExample's `Regression` cases (never in production). Prints
// `done: <file>, <file>` (or `done`) once everything is recorded, then exits 0.
import ConsentExample
import Foundation
import Tally

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("consent-example: \(message)\n".utf8))
    exit(1)
}

var regression: Regression?
let arguments = Array(CommandLine.arguments.dropFirst())
if let index = arguments.firstIndex(of: "--regression") {
    guard index + 1 < arguments.count, let planted = Regression(rawValue: arguments[index + 1]) else {
        fail("--regression needs one of: \(Regression.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    regression = planted
}

func vendor(_ name: String) throws -> (any Destination, URL?) {
    let environment = ProcessInfo.processInfo.environment
    let folder = environment[RecordingDestination.folderVariable] ?? ""
    if folder.isEmpty, let address = environment[RecordingDestination.collectorVariable], !address.isEmpty {
        guard let url = URL(string: address) else { fail("\(RecordingDestination.collectorVariable) is not a URL") }
        let session = environment[RecordingDestination.sessionVariable]
        let sink = CollectorRecordingSink(url: url, session: session?.isEmpty == false ? session : nil)
        return (RecordingDestination(sink: sink, source: "consent-example", name: name), nil)
    }
    guard !folder.isEmpty else { return (ConsoleDestination(name: name, prefix: "[\(name)]"), nil) }
    let url = try RecordingDestination.runFile(in: URL(fileURLWithPath: folder), source: "consent-example-\(name)")
    return (RecordingDestination(sink: try FileRecordingSink(url: url), source: "consent-example", name: name), url)
}

do {
    let (product, productFile) = try vendor(ConsentApp.productVendor)
    let (ads, adsFile) = try vendor(ConsentApp.adsVendor)
    let app = ConsentApp(product: product, ads: ads, regression: regression)
    await app.runScriptedSession()
    await app.shutdown()
    let files = [productFile, adsFile].compactMap { $0?.path }
    print(files.isEmpty ? "done" : "done: \(files.joined(separator: ", "))")
} catch {
    fail("\(error)")
}
