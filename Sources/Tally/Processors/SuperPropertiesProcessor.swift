/// Adds properties to every event, unless the event already has a property with that key.
///
/// ```swift
/// AnalyticsClient(processors: [.superProperties(["app_version": "2.3.0", "plan": "pro"])], destinations: [...])
/// ```
///
/// Only ``Event/Kind/track`` and ``Event/Kind/screen`` events get them by default: identify and group
/// properties are traits, not event properties.
///
/// ## Cost
/// The properties go into the event's own dictionary, in place, when it has room for them. When it has
/// not (a dictionary literal is built just big enough for its own keys), growing it would hash every key
/// again; instead the event's properties are added to a copy of a dictionary prepared once that already
/// holds the super properties and room for the event's, so only the event's own keys are hashed, once.
public struct SuperPropertiesProcessor: Processor {
    /// The properties added to each event.
    public var properties: [String: PropertyValue] {
        didSet { templates = Self.templates(for: properties) }
    }
    /// The kinds of event that get them.
    public var kinds: Set<Event.Kind> {
        didSet { kindMask = Self.mask(kinds) }
    }
    /// `kinds` as one bit per kind: checking it costs a shift, not a hash.
    private var kindMask: UInt8
    /// The super properties in dictionaries of growing capacity, for events of up to
    /// ``largestPreparedEvent`` properties: the one at index `i` has room for `i` more keys.
    private var templates: [[String: PropertyValue]]

    /// Events with more properties than this grow their own dictionary instead.
    static let largestPreparedEvent = 64

    /// Creates a processor that adds `properties` to events of `kinds`.
    public init(_ properties: [String: PropertyValue], kinds: Set<Event.Kind> = [.track, .screen]) {
        self.properties = properties
        self.kinds = kinds
        self.kindMask = Self.mask(kinds)
        self.templates = Self.templates(for: properties)
    }

    public var name: String { "super_properties" }

    public func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
        guard kindMask & Self.bit(envelope.event.kind) != 0, !properties.isEmpty else { return .keep }
        let own = envelope.event.properties.count
        if envelope.event.properties.capacity >= own + properties.count || own >= templates.count {
            envelope.event.properties.merge(properties) { event, _ in event }
            return .keep
        }
        // A copy of the template keeps its storage's layout: the super properties are not hashed again.
        var merged = templates[own]
        for (key, value) in envelope.event.properties { merged[key] = value }
        envelope.event.properties = merged
        return .keep
    }

    private static func templates(for properties: [String: PropertyValue]) -> [[String: PropertyValue]] {
        // Capacities grow in steps (a dictionary's room doubles), so most of these share a size.
        var templates: [[String: PropertyValue]] = []
        var current: [String: PropertyValue] = [:]
        for room in 0...largestPreparedEvent {
            if current.capacity < properties.count + room {
                current = [String: PropertyValue](minimumCapacity: properties.count + room)
                current.merge(properties) { _, new in new }
            }
            templates.append(current)
        }
        return templates
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
