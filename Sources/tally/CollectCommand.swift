#if CLI
import ArgumentParser

#if Collector
import Foundation
import Tally
import TallyCollector
import TallyPlan

/// `tally collect`: a local collector that Segment-compatible clients send to, with a read API for tests
/// and a live page.
struct CollectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collect",
        abstract:
            "Run a local collector: any Segment client can send to it; tests read and wait; a live page shows every event.",
        discussion: """
            Stores every event in SQLite (WAL): what was acknowledged survives the collector being killed. \
            Point a Segment-compatible client's host (analytics-swift's apiHost, analytics-python's host, \
            RudderStack's dataPlaneUrl) at the printed address; open it in a browser for the live page. \
            The first line printed is `Listening on http://HOST:PORT`. SIGINT or SIGTERM stops it.

            Writing: POST /v1/batch, /v1/track, /v1/screen, /v1/page, /v1/identify, /v1/group, /v1/alias \
            (Segment's tracking API; gzip bodies, the write key as Basic auth or in the body, or none), \
            POST /tally/records (Tally records, JSON Lines, kept with their consent, purpose, stage and \
            origin). A session tags events for one test: the \(CollectorProtocol.sessionHeader) header, or \
            context.\(CollectorProtocol.sessionContextKey).
            Reading: GET /tally/events, GET /tally/events/wait?count=N&timeout=MS (answers as soon as N \
            events match), GET /tally/records (the events as Tally records, which tally validate reads), \
            DELETE /tally/events, GET /tally/coverage (with --plan), GET /tally/stream (server-sent \
            events), GET / (the live page). Filters: name, kind, type, session, since, after. With --plan, \
            every event is validated on arrival as tally validate validates the same record, and an event \
            in a vendor's format, which names no consent purpose, is given (and stored with) its planned \
            event's purpose, so no gate reports it for a purpose nobody said. Without --plan its purpose is \
            unknown (null); read back as a record it has the default purpose, analytics: start the \
            collector with the plan you validate its vendor events against.

            Examples:
              tally collect
              tally collect --port 0 --database :memory:
              tally collect --plan tracking-plan.yaml --database .build/events.sqlite
              tally collect --host 0.0.0.0 --port 8787       # reachable from a device on the network
              curl -s -X POST localhost:8787/v1/track -d '{"event":"Signed Up","userId":"u1"}'
              curl -s 'localhost:8787/tally/events/wait?name=Signed%20Up&timeout=5000'
              curl -sf 'localhost:8787/tally/records?session=checkout' > checkout.jsonl
              tally validate --plan tracking-plan.yaml checkout.jsonl

            Exit codes:
              0   stopped by SIGINT or SIGTERM
              64  bad usage
              65  the plan is invalid
              66  the plan is missing or unreadable
              69  the host and port cannot be bound
              73  the database cannot be opened or created
            """
    )

    @Option(help: "The SQLite file to store events in, created when missing; :memory: to keep none.")
    var database = "tally-collector.sqlite"

    @Option(help: "The address to listen on. 0.0.0.0 listens on every interface.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8787

    @Option(
        help:
            "A tracking plan (YAML or JSON) to validate every event against on arrival; it also gives vendor-format events their planned purpose."
    )
    var plan: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
        guard !database.isEmpty else { throw ValidationError("--database needs a path, or :memory:.") }
    }

    func run() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, visionOS 1, *) else {
            StandardStreams.writeToStandardError("error: tally collect needs macOS 14 or later\n")
            throw ExitCode(69)
        }
        var trackingPlan: TrackingPlan?
        if let plan {
            let result = PlanLoader.load(contentsOf: URL(fileURLWithPath: plan), displayName: plan)
            for diagnostic in result.diagnostics { StandardStreams.writeToStandardError("\(diagnostic)\n") }
            guard let loaded = result.plan else {
                throw ExitCode(ToolExitCode.forLoadFailure(result.failureKind ?? .invalidPlan, lint: false))
            }
            trackingPlan = loaded
        }
        let configuration = Collector.Configuration(
            host: host, port: port, database: database == ":memory:" ? .inMemory : .file(database), plan: trackingPlan,
            stopsOnSignals: true)
        let collector: Collector
        do {
            collector = try await Collector.start(configuration)
        } catch let error as CollectorError {
            StandardStreams.writeToStandardError("error: \(error)\n")
            throw ExitCode(error.kind == .cannotOpenDatabase ? ToolExitCode.cannotCreateOutput : 69)
        }
        print("Listening on \(collector.url.absoluteString)")
        print(
            "Live page: \(collector.url.absoluteString)/   database: \(database)"
                + (plan.map { "   plan: \($0) (\(trackingPlan?.events.count ?? 0) events)" } ?? ""))
        fflush(nil)  // every stream: a parent reading the first line gets it now
        try await collector.waitUntilStopped()
    }
}
/// The subcommands the Collector trait adds to `tally`.
let collectorCommands: [any ParsableCommand.Type] = [CollectCommand.self]
#else
let collectorCommands: [any ParsableCommand.Type] = []
#endif
#endif
