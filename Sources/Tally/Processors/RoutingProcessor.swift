/// Sends matching events only to the named destinations; other events are untouched.
///
/// ```swift
/// let processors: [any Processor] = [
///     .route(names: ["purchase_completed"], to: ["firebase"]),   // purchases go to Firebase only
///     .route(kinds: [.identify], to: ["mixpanel", "segment"]),
/// ]
/// ```
///
/// Routed events are counted as ``DestinationStatistics/routedAway`` at the destinations they skip. When
/// several routes match, an event goes to the destinations they have in common.
public struct RoutingProcessor: Processor {
    /// The destinations matching events may reach.
    public let destinations: Set<String>
    private let matches: @Sendable (Envelope) -> Bool

    /// Routes the envelopes for which `matches` returns true to `destinations`.
    public init(to destinations: Set<String>, where matches: @escaping @Sendable (Envelope) -> Bool) {
        self.destinations = destinations
        self.matches = matches
    }

    public var name: String { "route" }

    public func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
        guard matches(envelope) else { return .keep }
        envelope.destinations = envelope.destinations.map { $0.intersection(destinations) } ?? destinations
        return .keep
    }
}

extension Processor where Self == RoutingProcessor {
    /// Sends events with these names only to `destinations`.
    public static func route(names: Set<String>, to destinations: Set<String>) -> RoutingProcessor {
        RoutingProcessor(to: destinations) { names.contains($0.event.name) }
    }

    /// Sends events of these kinds only to `destinations`.
    public static func route(kinds: Set<Event.Kind>, to destinations: Set<String>) -> RoutingProcessor {
        RoutingProcessor(to: destinations) { kinds.contains($0.event.kind) }
    }

    /// Sends the events for which `matches` returns true only to `destinations`.
    public static func route(
        to destinations: Set<String>, where matches: @escaping @Sendable (Envelope) -> Bool
    ) -> RoutingProcessor {
        RoutingProcessor(to: destinations, where: matches)
    }
}
