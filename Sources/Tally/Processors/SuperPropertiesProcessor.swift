/// Adds properties to every event, unless the event already has a property with that key.
///
/// ```swift
/// let analytics = AnalyticsClient(
///     processors: [.superProperties(["app_version": "2.3.0", "plan": "pro"])], destinations: destinations)
/// ```
///
/// Only ``Event/Kind/track`` and ``Event/Kind/screen`` events get them by default: identify and group
/// properties are traits, not event properties.
///
/// ## Cost
/// The super properties are not copied into each event: they become a layer under the event's own
/// properties (see ``Event/Properties``), which costs a reference, not a hash table. Readers see the merged
/// view, so a destination or a test cannot tell the difference.
public struct SuperPropertiesProcessor: Processor {
    /// The properties added to each event.
    public var properties: [String: PropertyValue]
    /// The kinds of event that get them.
    public var kinds: Set<Event.Kind> {
        didSet { kindMask = Self.mask(kinds) }
    }
    /// `kinds` as one bit per kind: checking it costs a shift, not a hash.
    private var kindMask: UInt8

    /// Creates a processor that adds `properties` to events of `kinds`.
    public init(_ properties: [String: PropertyValue], kinds: Set<Event.Kind> = [.track, .screen]) {
        self.properties = properties
        self.kinds = kinds
        self.kindMask = Self.mask(kinds)
    }

    public var name: String { "super_properties" }

    public func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
        guard kindMask & Self.bit(envelope.event.kind) != 0, !properties.isEmpty else { return .keep }
        envelope.event.properties.addShared(properties)
        return .keep
    }

    static func mask(_ kinds: Set<Event.Kind>) -> UInt8 { kinds.reduce(0) { $0 | bit($1) } }

    @inline(__always)
    static func bit(_ kind: Event.Kind) -> UInt8 {
        switch kind {
        case .track: 1
        case .screen: 2
        case .identify: 4
        case .group: 8
        case .alias: 16
        }
    }
}

extension Processor where Self == SuperPropertiesProcessor {
    /// Adds `properties` to every track and screen event that lacks them. See ``SuperPropertiesProcessor``.
    public static func superProperties(
        _ properties: [String: PropertyValue], kinds: Set<Event.Kind> = [.track, .screen]
    ) -> SuperPropertiesProcessor {
        SuperPropertiesProcessor(properties, kinds: kinds)
    }
}
