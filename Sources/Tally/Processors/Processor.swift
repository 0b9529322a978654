/// A step between tracking and delivery: enrich, rewrite, filter, sample or route an event.
///
/// The client runs its processors in order on one worker thread, never on the caller's thread, after the
/// ``InputLimits`` rules. Each processor gets the envelope the previous one returned.
///
/// ```swift
/// struct Uppercase: Processor {
///     func process(_ envelope: Envelope) -> Envelope? {
///         var envelope = envelope
///         envelope.event.name = envelope.event.name.uppercased()
///         return envelope
///     }
/// }
/// ```
///
/// Built-ins are available as static members: `.context(_:)`, `.superProperties(_:)`, `.filter(...)`,
/// `.redact(...)`, `.sample(...)` and `.route(...)`.
public protocol Processor: Sendable {
    /// A short name used in diagnostics, for example in ``DropReason/filtered(by:)``. Defaults to the type
    /// name.
    var name: String { get }

    /// Returns the envelope to pass on, changed or not, or nil to drop the event.
    ///
    /// Dropped events are counted under ``DropReason/filtered(by:)`` with this processor's ``name``.
    func process(_ envelope: Envelope) -> Envelope?
}

extension Processor {
    public var name: String { String(describing: Self.self) }
}
