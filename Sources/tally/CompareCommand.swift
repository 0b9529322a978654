#if CLI
import ArgumentParser
import Foundation
import Tally
import TallyPlan

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `tally compare --recordings DIR --collector URL --session S`: did everything the app tracked arrive through
/// the vendor's SDK?
struct CompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare what an app tracked (its Tally recording) with what arrived at `tally collect`.",
        discussion: """
            The app's test run records what it tracked to a destination (TALLY_RECORD_DIR); the destination's \
            vendor SDK, its server URL pointed at `tally collect`, delivers the same events there. This \
            command matches the two: by message id where the SDK kept Tally's, by content (kind, name, user, \
            group, the tracked properties) where it did not. It lists what is missing, what arrived twice and \
            what arrived altered, and fails on any. What arrived and matches nothing tracked (the SDK's own \
            events) is counted, not failed.

            Examples:
              tally compare --recordings .build/recordings --collector http://127.0.0.1:8787 --session checkout
              curl -s 'http://127.0.0.1:8787/tally/events?session=checkout' > arrived.json
              tally compare --recordings .build/recordings --arrived arrived.json --source posthog

            Exit codes:
              0   every tracked event arrived once, as tracked
              1   an event is missing, duplicated or altered
              64  bad usage
              65  a recording or the arrived events cannot be read as such
              66  a recording or the arrived file is missing, or the collector cannot be reached
            """
    )

    @Option(help: "A folder of recordings (or one recording file): what the app tracked. Repeat to read several.")
    var recordings: [String] = []

    @Option(help: "The collector to read what arrived from, such as http://127.0.0.1:8787.")
    var collector: String?

    @Option(help: "The collector session to read (with --collector).")
    var session: String?

    @Option(help: "A saved read API answer (GET /tally/events) to read what arrived from, instead of --collector.")
    var arrived: String?

    @Option(help: "Only the events that arrived through this API: posthog, amplitude, mixpanel or segment.")
    var source: String?

    @Option(help: "Only the tracked events of this kind and name, as kind:name (track:Order Completed). Repeat.")
    var only: [String] = []

    func validate() throws {
        if recordings.isEmpty { throw ValidationError("Name what the app tracked with --recordings DIR.") }
        if (collector == nil) == (arrived == nil) {
            throw ValidationError("Name either --collector URL or --arrived FILE.")
        }
        if collector != nil && session == nil { throw ValidationError("--collector needs --session NAME.") }
    }

    func run() async throws {
        var tracked: [Envelope] = []
        for path in recordings {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw ExitCode(fail("\(path) does not exist", code: ToolExitCode.missingInput))
            }
            do {
                let url = URL(fileURLWithPath: path)
                let file = isFolder.boolValue ? try RecordingFile(folder: url) : try RecordingFile(contentsOf: url)
                if let problem = file.problems.first { throw problem }
                tracked += file.records.map(\.envelope)
            } catch {
                throw ExitCode(fail("\(error)", code: ToolExitCode.invalidInput))
            }
        }
        if !only.isEmpty {
            tracked = tracked.filter { envelope in
                only.contains("\(envelope.event.kind.rawValue):\(envelope.event.name)")
            }
        }
        var arrivals = try await readArrivals()
        if let source { arrivals = arrivals.filter { $0.vendor == source } }
        let comparison = DeliveryComparison(tracked: tracked, arrived: arrivals)
        _ = ToolOutput.write(comparison.description + "\n", to: STDOUT_FILENO, named: "standard output")
        if !comparison.isComplete { throw ExitCode(ToolExitCode.checkFailed) }
    }

    private func readArrivals() async throws -> [DeliveryComparison.Arrival] {
        if let arrived {
            guard let data = FileManager.default.contents(atPath: arrived) else {
                throw ExitCode(fail("\(arrived) does not exist or cannot be read", code: ToolExitCode.missingInput))
            }
            do {
                return try DeliveryComparison.Arrival.arrivals(readAPIAnswer: data).arrivals
            } catch {
                throw ExitCode(fail("\(arrived): \(error)", code: ToolExitCode.invalidInput))
            }
        }
        guard let collector, let session, var base = URLComponents(string: collector) else {
            throw ValidationError("--collector must be a URL")
        }
        base.path = "/tally/events"
        var arrivals: [DeliveryComparison.Arrival] = []
        var after = 0
        while true {
            base.queryItems = [
                URLQueryItem(name: "session", value: session), URLQueryItem(name: "after", value: String(after)),
            ]
            guard let url = base.url else { throw ValidationError("--collector must be a URL") }
            let data: Data
            do {
                var request = URLRequest(url: url)
                request.timeoutInterval = 30
                let (body, response) = try await URLSession.shared.data(for: request)
                guard (response as? HTTPURLResponse)?.statusCode == 200 else {
                    throw ExitCode(
                        fail("\(url) answered \(String(decoding: body.prefix(300), as: UTF8.self))", code: 66))
                }
                data = body
            } catch let exit as ExitCode {
                throw exit
            } catch {
                throw ExitCode(
                    fail("Cannot read \(url): \(error.localizedDescription)", code: ToolExitCode.missingInput))
            }
            let page: (arrivals: [DeliveryComparison.Arrival], more: Bool)
            let ids: [Int]
            do {
                page = try DeliveryComparison.Arrival.arrivals(readAPIAnswer: data)
                ids =
                    try PropertyValue(jsonBytes: data).objectValue?["events"]?.arrayValue?.compactMap {
                        $0.objectValue?["id"]?.intValue
                    } ?? []
            } catch {
                throw ExitCode(fail("\(url): \(error)", code: ToolExitCode.invalidInput))
            }
            arrivals += page.arrivals
            guard page.more, let last = ids.last else { return arrivals }
            after = last
        }
    }

    private func fail(_ message: String, code: Int32) -> Int32 {
        _ = ToolOutput.write("error: \(message)\n", to: STDERR_FILENO, named: "standard error")
        return code
    }
}
#endif
