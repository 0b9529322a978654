#if Collector
import Foundation
import Logging
import Tally
import TallyPlan

@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
extension Collector {
    /// Where a collector listens and stores, and what it checks events against.
    ///
    /// ```swift
    /// var configuration = Collector.Configuration()          // 127.0.0.1, a free port, in memory
    /// configuration.database = .file("events.sqlite")
    /// configuration.plan = try PlanLoader.load(contentsOf: planURL).get()
    /// ```
    public struct Configuration: Sendable {
        /// The address to listen on. Default `127.0.0.1`: only this machine can send. Use `0.0.0.0` for a
        /// device or simulator on the network to reach it.
        public var host: String
        /// The port; 0 (the default) picks a free one, which ``Collector/port`` then tells.
        public var port: Int
        /// Where events are stored. Default ``Database/inMemory``.
        public var database: Database
        /// The tracking plan every event is validated against on arrival; nil for none. With a plan, every
        /// stored event carries its violations and `GET /tally/coverage` answers. Events are judged as
        /// `tally validate` judges the same records: at their stage, with the consent they were delivered
        /// with, and with values that look like personal data in unmarked properties reported. An event in a
        /// vendor's format, which names no consent purpose, is given its planned event's purpose on arrival,
        /// stored and served with it; without a plan its purpose is unknown (`null`), and a reader gives it
        /// the default, `analytics`.
        public var plan: TrackingPlan?
        /// How often the live page's streams get a heartbeat. Default 15 seconds.
        public var heartbeat: Duration
        /// How many messages a live page viewer may fall behind before it loses the oldest (and is told
        /// how many). Default 1,000.
        public var viewerBufferSize: Int
        /// Whether SIGINT and SIGTERM stop the collector gracefully (what `tally collect` wants). Default
        /// false: an embedded collector leaves the process's signals alone.
        public var stopsOnSignals: Bool
        /// How much the server logs, to standard error. Default warnings and worse.
        package var logLevel: Logger.Level = .warning

        /// A configuration; every parameter has the default its property documents.
        public init(
            host: String = "127.0.0.1", port: Int = 0, database: Database = .inMemory, plan: TrackingPlan? = nil,
            heartbeat: Duration = .seconds(15), viewerBufferSize: Int = 1000, stopsOnSignals: Bool = false
        ) {
            self.host = host
            self.port = port
            self.database = database
            self.plan = plan
            self.heartbeat = heartbeat
            self.viewerBufferSize = viewerBufferSize
            self.stopsOnSignals = stopsOnSignals
        }
    }

    /// Where a collector stores events.
    public struct Database: Sendable, Hashable, CustomStringConvertible {
        /// The SQLite file's path, or `:memory:`.
        public var path: String

        /// A SQLite file, created when missing, in WAL mode. Events survive the collector being killed;
        /// start it again on the same file to read them.
        public static func file(_ path: String) -> Database { Database(path: path) }

        /// Memory only: events are gone when the collector stops.
        public static let inMemory = Database(path: ":memory:")

        public var description: String { path }
    }
}

@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
extension CollectorRoutes {
    /// Opens the store and wires the waits and the live feed to its commits.
    init(configuration: Collector.Configuration) throws {
        // Embedded in another process, the collector runs on threads of its own (see CollectorExecutor). A
        // standalone one (stopping on signals) has the process to itself and uses Swift's pool: its signal
        // handling cancels tasks in a way that deadlocks with task executor preferences on Swift 6.3.
        let tasks = CollectorTasks(
            threads: configuration.stopsOnSignals ? 0 : ProcessInfo.processInfo.activeProcessorCount)
        let store: EventStore
        do {
            store = try EventStore(path: configuration.database.path, tasks: tasks)
        } catch {
            tasks.shutdown()
            throw CollectorError(
                .cannotOpenDatabase, "Cannot open the database \(configuration.database.path): \(error)")
        }
        let waits = WaitList(store: store, tasks: tasks)
        let feed = LiveFeed(capacity: configuration.viewerBufferSize, heartbeat: configuration.heartbeat, tasks: tasks)
        store.onCommit { events in
            waits.committed(events)
            feed.publish(events)
        }
        self.init(
            store: store, waits: waits, feed: feed, plan: configuration.plan,
            // As `tally validate` builds it, so that both judge an event alike.
            validator: configuration.plan.map { PlanValidator(forGates: $0) },
            stopping: Locked(false), tasks: tasks)
    }
}
#endif
