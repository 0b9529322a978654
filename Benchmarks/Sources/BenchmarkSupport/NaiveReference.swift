import Tally

/// The naive reference every figure is divided by: build the event and hand it to three closures (or as many
/// as the client has destinations), as an app with three SDKs called inline would. No stamping, no lock, no
/// queue, no thread.
///
/// ```swift
/// let reference = NaiveReference.make()
/// for index in benchmark.scaledIterations {
///     reference.send(SampleEvent.menuItemOrdered(index))
/// }
/// ```
public struct NaiveReference: Sendable {
    /// The three "destinations": each takes the event and reads a little of it, out of the optimizer's reach.
    public let sinks: [@Sendable (Event) -> Void]

    init(sinks: [@Sendable (Event) -> Void]) { self.sinks = sinks }

    /// Makes the closures out of the optimizer's sight, so calls through them stay real calls.
    ///
    /// - Parameter destinations: how many closures, as many as the client it stands beside has destinations;
    ///   the three kinds of closure take turns.
    @inline(never)
    public static func make(destinations: Int = 3) -> NaiveReference {
        let kinds: [@Sendable (Event) -> Void] = [
            { event in discard(event.name.utf8.count) },
            { event in discard(event.properties.count) },
            { event in discard(event.kind) },
        ]
        return NaiveReference(sinks: (0..<max(1, destinations)).map { kinds[$0 % kinds.count] })
    }

    /// Calls each closure with `event`.
    @inlinable
    public func send(_ event: Event) {
        for sink in sinks { sink(event) }
    }
}

/// Ordo-one's `blackHole`, kept here so that this module does not link the benchmark library (and its malloc
/// interposer) into ClientProfile, which must stay readable by valgrind.
@_optimize(none)
func discard(_: some Any) {}
