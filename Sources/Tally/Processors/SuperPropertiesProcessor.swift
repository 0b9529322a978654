/// Adds properties to every event, unless the event already has a property with that key.
///
/// ```swift
/// AnalyticsClient(processors: [.superProperties(["app_version": "2.3.0", "plan": "pro"])], destinations: [...])
/// ```
///
/// Only ``Event/Kind/track`` and ``Event/Kind/screen`` events get them by default: identify and group
/// properties are traits, not event properties.
public struct SuperPropertiesProcessor: Processor {
    /// The properties added to each event.
    public var properties: [String: PropertyValue]
    /// The kinds of event that get them.
    public var kinds: Set<Event.Kind>

    /// Creates a processor that adds `properties` to events of `kinds`.
    public init(_ properties: [String: PropertyValue], kinds: Set<Event.Kind> = [.track, .screen]) {
        self.properties = properties
        self.kinds = kinds
    }

    public var name: String { "super_properties" }

    public func process(_ envelope: Envelope) -> Envelope? {
        guard kinds.contains(envelope.event.kind) else { return envelope }
        var envelope = envelope
        // One dictionary at its final size: merging into the event's own would copy it (the queue still
        // holds it) and then grow it.
        var merged = [String: PropertyValue](minimumCapacity: envelope.event.properties.count + properties.count)
        merged.merge(properties) { _, new in new }
        merged.merge(envelope.event.properties) { _, event in event }
        envelope.event.properties = merged
        return envelope
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
