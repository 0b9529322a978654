import Tally

/// A client set up as the performance budget describes it: two processors (super properties, then
/// context) and three cheap destinations that count what they receive (or another number of them, for the
/// cost of one more destination).
///
/// ```swift
/// let fixture = ClientFixture(buffering: Buffering(capacity: 2_000))
/// fixture.analytics.track(SampleEvent.menuItemOrdered(1))
/// await fixture.analytics.flush()
/// if let failure = fixture.deliveryFailure() { benchmark.error(failure) }
/// ```
public final class ClientFixture: Sendable {
    /// The client under test.
    public let analytics: AnalyticsClient
    /// The three destinations, in order.
    public let destinations: [CountingDestination]

    /// The processors every client benchmark runs: super properties, then context.
    public static func processors() -> [any Processor] {
        [
            .superProperties(["app_version": "2.3.0", "plan": "pro"]),
            .context(["library": ["name": "tally", "version": "0.1.0"], "os": "Linux"]),
        ]
    }

    /// Creates the client.
    ///
    /// - Parameters:
    ///   - buffering: the client's own queue.
    ///   - destinationBuffering: each destination's queue; the same as `buffering` when nil.
    ///   - gate: when given, its processor runs before the two others (see ``WorkerGate``).
    ///   - destinationCount: how many counting destinations; 3 in the budget's setup.
    ///   - processors: whether the client runs ``processors()``; without them (and without consent) it is
    ///     the default configuration apart from its queues.
    ///   - consent: whether the client uses consent: `.analytics` (the sample events' purpose) is required
    ///     and the user has granted it, so every event passes the consent gate and carries
    ///     ``DeliveredConsent/granted``.
    public init(
        buffering: Buffering, destinationBuffering: Buffering? = nil, gate: WorkerGate? = nil,
        destinationCount: Int = 3, processors runsProcessors: Bool = true, consent: Bool = false
    ) {
        let names = ["first", "second", "third"] + (3..<max(3, destinationCount)).map { "extra\($0 - 2)" }
        destinations = names.prefix(destinationCount).map { CountingDestination(name: $0) }
        var processors = runsProcessors ? Self.processors() : []
        if let gate { processors.insert(gate.processor, at: 0) }
        var configuration = AnalyticsClient.Configuration(
            buffering: buffering, destinationBuffering: destinationBuffering ?? buffering)
        if consent {
            configuration.consentRequired = [.analytics]
            configuration.consentStore = InMemoryConsentStore([.analytics: .granted])
        }
        analytics = AnalyticsClient(processors: processors, destinations: destinations, configuration: configuration)
    }

    /// Nil when every tracked event reached every destination with nothing dropped anywhere; otherwise what
    /// went wrong. Exact only after `flush()`.
    public func deliveryFailure() -> String? {
        let statistics = analytics.statistics
        if statistics.totalDropped != 0 {
            return "The client dropped \(statistics.totalDropped) event(s): \(statistics.dropped)"
        }
        for destination in destinations {
            let stats = statistics.destinations[destination.name] ?? DestinationStatistics()
            if !stats.dropped.isEmpty {
                return "Destination \(destination.name) dropped events: \(stats.dropped)"
            }
            if stats.delivered != statistics.tracked || destination.count != statistics.tracked {
                return "Destination \(destination.name) received \(destination.count) of \(statistics.tracked) events"
            }
        }
        return nil
    }
}
