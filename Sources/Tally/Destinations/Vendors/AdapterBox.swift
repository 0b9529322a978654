/// Holds a vendor adapter inside a `Sendable` destination.
///
/// `@unchecked Sendable` because vendor SDK classes are not `Sendable`, so the adapter protocols cannot
/// require it. It is safe because the client calls a destination's ``Destination/receive(_:context:)``,
/// ``Destination/flush()`` and ``Destination/reset()`` from one thread at a time (the destination's own
/// lane), so the adapter is never reached through this box from two threads at once. Giving the same
/// destination to two clients, or calling the SDK directly from elsewhere while the client delivers,
/// relies on the SDK's own thread safety, which Firebase, Mixpanel, Amplitude and Segment document.
struct AdapterBox<Adapter>: @unchecked Sendable {
    /// The adapter the destination calls.
    let adapter: Adapter

    init(_ adapter: Adapter) { self.adapter = adapter }
}
