/// The names the collector's wire protocol uses, spelled once for every part of Tally that speaks it: the
/// recording destination that sends to a collector, TallyTesting's `CollectorReader`, the collector itself
/// (TallyCollector, `tally collect`).
///
/// ```swift
/// app.launchEnvironment[CollectorProtocol.collectorVariable] = events.url.absoluteString
/// app.launchEnvironment[CollectorProtocol.sessionVariable] = events.session
/// ```
public enum CollectorProtocol {
    /// The HTTP header that tags a request's events with a session: `Tally-Session`.
    public static let sessionHeader = "Tally-Session"
    /// The member of an event's `context` that tags it with a session, for clients that cannot set headers:
    /// `tally_session`. It wins over the header.
    public static let sessionContextKey = "tally_session"
    /// The environment variable naming the collector an app sends to: `TALLY_COLLECTOR=http://127.0.0.1:8787`.
    public static let collectorVariable = "TALLY_COLLECTOR"
    /// The environment variable naming the session an app tags its events with: `TALLY_SESSION=login-test`.
    public static let sessionVariable = "TALLY_SESSION"
}

/// The last reads a collector in this process lets its readers take before it stops.
///
/// A test's exhaustive check reads each `CollectorReader` when the test ends, but a test that runs its own
/// collector stops it at the end of its body, before that. So a reader in exhaustive mode registers here,
/// by the collector's port, and `Collector.stop()` awaits the reads of its port's readers while it still
/// serves: nothing it stored escapes the check.
package enum CollectorLastReads {
    private static let readers = Locked([ObjectIdentifier: (port: Int, read: @Sendable () async -> Void)]())

    /// Registers `read` for the collector listening on `port`, under `owner`'s identity.
    package static func register(_ owner: AnyObject, port: Int, read: @escaping @Sendable () async -> Void) {
        readers.withLock { $0[ObjectIdentifier(owner)] = (port, read) }
    }

    /// Forgets what `owner` registered.
    package static func unregister(_ owner: AnyObject) {
        readers.withLock { $0[ObjectIdentifier(owner)] = nil }
    }

    /// Runs, one after another, the last reads registered for `port`.
    package static func take(port: Int) async {
        let reads = readers.current.values.filter { $0.port == port }.map(\.read)
        for read in reads { await read() }
    }
}
