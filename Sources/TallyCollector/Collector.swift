#if Collector
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Tally
import TallyPlan
import UnixSignals

/// A local collector: a server that any Segment-compatible client, and Tally's own recording sink, can send
/// events to; it stores every event in SQLite and lets tests read them, wait for them without polling, and
/// watch them arrive on a live page.
///
/// `tally collect` runs one from the command line. A test can run one in its own process, on a free port,
/// and stop it when done:
///
/// ```swift
/// let collector = try await Collector.start()  // 127.0.0.1, a free port, in memory
/// let events = CollectorReader(url: collector.url, session: "login-test")
/// // The app adds `RecordingDestination.collectorFromEnvironment()`, which reads these two variables.
/// try await launchApp(environment: [
///     CollectorProtocol.collectorVariable: collector.url.absoluteString,  // TALLY_COLLECTOR
///     CollectorProtocol.sessionVariable: events.session,  // TALLY_SESSION
/// ])
/// await events.waitForEvent(.named("login_tapped"))
/// events.expectTracked(.named("login_tapped"))
/// await collector.stop()  // in exhaustive mode, the reader takes its last read first
/// ```
///
/// See <doc:RunningTheCollector> for the HTTP API.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
public final class Collector: Sendable {
    /// Where the collector listens, such as `http://127.0.0.1:52714`.
    public let url: URL
    /// The port it listens on (the one picked when the configuration asked for port 0).
    public let port: Int
    /// What it was started with.
    public let configuration: Configuration

    private let group: ServiceGroup
    private let running: Task<Void, any Error>
    let routes: CollectorRoutes

    private init(
        url: URL, port: Int, configuration: Configuration, group: ServiceGroup, running: Task<Void, any Error>,
        routes: CollectorRoutes
    ) {
        self.url = url
        self.port = port
        self.configuration = configuration
        self.group = group
        self.running = running
        self.routes = routes
    }

    /// Opens the database and starts listening; returns once the port is bound.
    ///
    /// ```swift
    /// var configuration = Collector.Configuration()
    /// configuration.database = .file(folder.appendingPathComponent("events.sqlite").path)
    /// let collector = try await Collector.start(configuration)
    /// print(collector.url)                                     // http://127.0.0.1:52714
    /// ```
    ///
    /// - Parameter configuration: where to listen and store; by default 127.0.0.1 on a free port, in memory.
    /// - Returns: the running collector.
    /// - Throws: ``CollectorError`` when the database cannot be opened or the address cannot be bound.
    public static func start(_ configuration: Configuration = Configuration()) async throws -> Collector {
        let routes = try CollectorRoutes(configuration: configuration)
        var logger = Logger(label: "tally.collector", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = configuration.logLevel
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            router: routes.router(),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: application),
                    .init(service: StopService(routes: routes), successTerminationBehavior: .gracefullyShutdownGroup),
                ],
                gracefulShutdownSignals: configuration.stopsOnSignals ? [.sigterm, .sigint] : [],
                logger: logger))
        let running = routes.tasks.spawn {
            defer {
                portContinuation.finish()
                routes.tasks.shutdown()
            }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            do {
                try await running.value
            } catch {
                throw CollectorError(
                    .cannotListen, "Cannot listen on \(configuration.host):\(configuration.port): \(error)")
            }
            throw CollectorError(
                .cannotListen, "The collector stopped before it listened on \(configuration.host):\(configuration.port)"
            )
        }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return Collector(
            url: URL(string: "http://\(host):\(port)")!, port: port, configuration: configuration, group: group,
            running: running, routes: routes)
    }

    /// Stops: ends every long-poll (answered 503) and live page stream, finishes the requests in progress,
    /// and closes the port. Stored events stay in the database file.
    ///
    /// First, while it still answers, it lets every `CollectorReader` of this process that is in
    /// exhaustive mode and reads this collector take its last read: a test may stop its collector at the
    /// end of its body, and exhaustive mode still checks every event the collector stored.
    public func stop() async {
        await CollectorLastReads.take(port: port)
        await group.triggerGracefulShutdown()
        _ = await running.result
    }

    /// Suspends until the collector stops: after ``stop()``, or on SIGINT or SIGTERM when the configuration
    /// says ``Configuration/stopsOnSignals``.
    ///
    /// - Throws: the server's error if it failed while running.
    public func waitUntilStopped() async throws {
        try await running.value
    }
}

/// Ends the waits and streams that would keep the server's graceful shutdown waiting: the service group
/// shuts services down last first, so this runs before the server stops accepting.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
struct StopService: Service {
    let routes: CollectorRoutes

    func run() async throws {
        try? await gracefulShutdown()
        routes.stopping.withLock { $0 = true }
        routes.waits.close()
        routes.feed.close()
    }
}

/// Why a collector could not start.
public struct CollectorError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The database file could not be opened or created, or is not a collector database.
        case cannotOpenDatabase
        /// The host and port could not be bound (in use, or no such address).
        case cannotListen
    }

    /// What went wrong.
    public var kind: Kind
    /// Says what went wrong, with the system's reason.
    public var description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
#endif
