/// A vendor SDK's client that is not `Sendable`, held by a destination that calls it only from its own
/// delivery thread.
///
/// Most vendor SDKs are classes written before Swift's concurrency checking, so they are not `Sendable`,
/// and a ``Destination`` must be. The client calls a destination's ``Destination/receive(_:context:)``,
/// ``Destination/flush()`` and ``Destination/reset()`` on the destination's own thread, one call at a
/// time, so an SDK reached only from those three never sees two threads at once. `VendorClient` states that
/// arrangement once, instead of an `@unchecked Sendable` on every destination:
///
/// ```swift
/// import HippoAnalytics  // a Swift 5 SDK: `HippoAnalyticsClient` is a class, not Sendable
/// import Tally
///
/// struct HippoDestination: Destination {
///     let name = "hippo"
///     private let hippo: VendorClient<HippoAnalyticsClient>
///
///     init(client: HippoAnalyticsClient) { hippo = VendorClient(client) }
///
///     func receive(_ envelope: Envelope, context: DestinationContext) throws {
///         let event = envelope.event
///         hippo.client.logEvent(named: event.name, properties: event.properties.foundationValue)
///     }
/// }
/// ```
///
/// The built-in vendor destinations (``FirebaseDestination``, ``MixpanelDestination``…) hold their adapters
/// this way.
///
/// What stays your responsibility: call ``client`` only from the destination's `receive`, `flush` and
/// `reset`; give the destination to one client; and if the app also calls the SDK directly elsewhere, rely
/// on the SDK's own thread safety, as its documentation describes (Firebase, Mixpanel, Amplitude and
/// Segment document theirs).
///
/// `@unchecked Sendable`: the value is only reached from one destination's delivery thread, as above.
public struct VendorClient<Client>: @unchecked Sendable {
    /// The SDK's client. Call it only from the destination's `receive`, `flush` and `reset`.
    public let client: Client

    /// Holds `client` for a destination.
    public init(_ client: Client) { self.client = client }
}
