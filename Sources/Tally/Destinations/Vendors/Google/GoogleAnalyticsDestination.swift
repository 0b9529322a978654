/// Sends events to the Google SDK of the adapter-pattern example through a ``GoogleAnalyticsAdapter``:
/// the example's `GoogleAnalyticsService`.
///
/// The destination owns the transformation; the adapter only mirrors the SDK, which has one call and
/// documents no limits:
///
/// | event | Google SDK call |
/// |---|---|
/// | ``Event/Kind/track`` | `trackEvent(with: name, properties: properties)` |
/// | ``Event/Kind/screen`` | `trackEvent(with: "screen_view", properties: properties + ["screen_name": name])`, Google Analytics' screen event |
/// | ``Event/Kind/identify``, ``Event/Kind/group``, ``Event/Kind/alias`` | none: the event is dropped with a ``Problem`` (outcome ``Problem/Outcome/dropped``, counted as ``DropReason/rejected``), because the SDK has no call for users, groups or aliases |
/// | ``AnalyticsClient/reset()`` | none: the SDK has no reset call, so the destination keeps the default ``Destination/reset()``, which does nothing |
///
/// A `screen_name` property of a screen event is replaced by the screen's name, with a problem when they
/// differed. To keep identify, group and alias events from reaching this destination at all, and so
/// from being counted as rejected, route them elsewhere:
///
/// ```swift
/// let analytics = AnalyticsClient(
///     processors: [.route(kinds: [.identify, .group, .alias], to: ["firebase"])],
///     destinations: [GoogleAnalyticsDestination(adapter: googleSDK), firebase]
/// )
/// ```
///
/// Nothing is lost by not resetting: the destination never hands the SDK the user's id or traits
/// (identify and alias events are dropped, and the envelope's ids are not sent), so after a sign-out the
/// SDK holds no identity to forget.
public struct GoogleAnalyticsDestination: Destination {
    /// The destination's name. Default `google`.
    public let name: String
    private let box: VendorClient<any GoogleAnalyticsAdapter>

    /// Creates a destination calling `adapter`, normally the Google SDK.
    ///
    /// - Parameters:
    ///   - adapter: receives the SDK's call.
    ///   - name: the destination's name. Default `google`.
    public init(adapter: any GoogleAnalyticsAdapter, name: String = "google") {
        self.name = name
        self.box = VendorClient(adapter)
    }

    /// Transforms the event into the SDK's call and makes it.
    ///
    /// - Throws: a ``Problem`` with outcome ``Problem/Outcome/dropped`` for identify, group and alias
    ///   events, which the SDK has no call for.
    public func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let event = envelope.event
        switch event.kind {
        case .track:
            box.client.trackEvent(with: event.name, properties: event.properties.dictionary.foundationValue)
        case .screen:
            var problems: [Problem] = []
            var properties = event.properties.dictionary
            VendorRules.insert(
                .string(event.name), forKey: "screen_name", into: &properties, vendor: "The Google SDK", event: event,
                problems: &problems)
            problems.forEach(context.report)
            box.client.trackEvent(with: "screen_view", properties: properties.foundationValue)
        case .identify, .group, .alias:
            throw VendorRules.problem(
                "The Google SDK has no call for \(event.kind.rawValue) events", outcome: .dropped, event: event,
                path: nil)
        }
    }
}
