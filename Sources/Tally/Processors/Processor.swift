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

    /// The form the client calls: like ``process(_:)``, with a context to report problems to the client's
    /// diagnostics. The default calls ``process(_:)``; implement this one when the processor has problems to
    /// report, such as rules an event breaks.
    func process(_ envelope: Envelope, context: ProcessingContext) -> Envelope?
}

extension Processor {
    public var name: String { String(describing: Self.self) }

    public func process(_ envelope: Envelope, context: ProcessingContext) -> Envelope? { process(envelope) }
}

/// What a processor can use while the client runs it.
public struct ProcessingContext: Sendable {
    /// The processor's name.
    public let processor: String
    private let reporter: @Sendable (Problem) -> Void

    /// Creates a context that hands problems to `report`. The client makes these; tests of a processor may
    /// make their own.
    public init(processor: String, report: @escaping @Sendable (Problem) -> Void) {
        self.processor = processor
        self.reporter = report
    }

    /// Reports a problem with the event being processed: it reaches ``AnalyticsClient/Configuration/onProblem``
    /// and ``Diagnostics/recentProblems``.
    public func report(_ problem: Problem) { reporter(problem) }
}
