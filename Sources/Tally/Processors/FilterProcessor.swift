/// Keeps only the events a rule accepts; the others are dropped and counted under
/// ``DropReason/filtered(by:)``.
///
/// ```swift
/// let processors: [any Processor] = [
///     .filter(kinds: [.track, .screen]),          // no identify, group or alias
///     .filter(excludingNames: ["debug_ping"]),    // everything but these
///     .filter(named: "no_test_users") { $0.userId?.hasPrefix("test-") != true },
/// ]
/// ```
public struct FilterProcessor: Processor {
    public let name: String
    private let keep: @Sendable (Envelope) -> Bool

    /// Creates a filter that keeps the envelopes for which `keep` returns true.
    ///
    /// - Parameters:
    ///   - name: the name drops are counted under.
    ///   - keep: called on the client's worker thread.
    public init(name: String = "filter", keep: @escaping @Sendable (Envelope) -> Bool) {
        self.name = name
        self.keep = keep
    }

    public func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
        keep(envelope) ? .keep : .drop
    }
}

extension Processor where Self == FilterProcessor {
    /// Keeps only events of these kinds.
    public static func filter(kinds: Set<Event.Kind>) -> FilterProcessor {
        FilterProcessor(name: "filter_kinds") { kinds.contains($0.event.kind) }
    }

    /// Keeps only events with these names.
    public static func filter(names: Set<String>) -> FilterProcessor {
        FilterProcessor(name: "filter_names") { names.contains($0.event.name) }
    }

    /// Drops events with these names and keeps all others.
    public static func filter(excludingNames names: Set<String>) -> FilterProcessor {
        FilterProcessor(name: "filter_names") { !names.contains($0.event.name) }
    }

    /// Keeps the events for which `keep` returns true.
    public static func filter(
        named name: String = "filter", _ keep: @escaping @Sendable (Envelope) -> Bool
    ) -> FilterProcessor {
        FilterProcessor(name: name, keep: keep)
    }
}
