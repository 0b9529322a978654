/// A step between tracking and delivery: enrich, rewrite, filter, sample or route an event.
///
/// The client runs its processors in order on one worker thread, never on the caller's thread, after the
/// ``InputLimits`` rules. Each changes the envelope in place, where the client holds it: an event passes
/// through every processor without being copied, and a processor that adds a property to an event whose
/// properties nobody else holds changes that dictionary without making a new one.
///
/// ```swift
/// struct Uppercase: Processor {
///     func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
///         envelope.event.name = envelope.event.name.uppercased()
///         return .keep
///     }
/// }
/// ```
///
/// Built-ins are available as static members: `.context(_:)`, `.superProperties(_:)`, `.filter(...)`,
/// `.redact(...)`, `.sample(...)` and `.route(...)`.
public protocol Processor: Sendable {
    /// A short name used in statistics, for example in ``DropReason/filtered(by:)``. Defaults to the type
    /// name.
    var name: String { get }

    /// Changes `envelope` in place, or decides to drop it.
    ///
    /// Dropped events are counted under ``DropReason/filtered(by:)`` with this processor's ``name``; the
    /// envelope is not looked at again, so a processor that drops an event need not undo its changes.
    ///
    /// - Parameters:
    ///   - envelope: the event and what the client added to it, as the previous processor left it.
    ///   - context: where to report problems, such as rules the event breaks.
    /// - Returns: ``ProcessingDecision/keep`` to pass the envelope on, ``ProcessingDecision/drop`` to drop
    ///   the event.
    func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision
}

/// What a ``Processor`` decides about an event.
public enum ProcessingDecision: Sendable, Hashable {
    /// Pass the envelope, as changed, to the next processor and then the destinations.
    case keep
    /// Drop the event; it is counted under ``DropReason/filtered(by:)``.
    case drop
}

extension Processor {
    public var name: String { String(describing: Self.self) }

    /// Runs the processor on a copy of `envelope`, as the client would, for tests of a processor.
    ///
    /// ```swift
    /// let output = SuperPropertiesProcessor(["app": "menu"]).process(envelope)
    /// #expect(output?.event.properties["app"] == "menu")
    /// ```
    ///
    /// - Parameters:
    ///   - envelope: the input.
    ///   - report: receives the problems the processor reports; by default they are ignored.
    /// - Returns: the changed envelope, or nil when the processor drops the event.
    public func process(
        _ envelope: Envelope, reportingTo report: @escaping @Sendable (Problem) -> Void = { _ in }
    ) -> Envelope? {
        var envelope = envelope
        let decision = process(&envelope, context: ProcessingContext(processor: name, report: report))
        return decision == .keep ? envelope : nil
    }
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
    /// and ``Statistics/recentProblems``.
    public func report(_ problem: Problem) { reporter(problem) }
}
