import Tally

/// The event -> SDK transformation of the article's `GoogleAnalyticsService`, as a Tally destination that
/// calls the SDK through a ``GoogleAnalyticsAdapter``.
///
/// The SDK has one call and documents no limits:
///
/// | event | Google SDK call |
/// |---|---|
/// | track | `trackEvent(with: name, properties: properties)` |
/// | screen | `trackEvent(with: "screen_view", properties: properties + ["screen_name": name])` |
/// | identify, group, alias | none: the event is dropped with a `vendor_limit` problem (counted as rejected), because the SDK has no call for users, groups or aliases |
/// | reset | none: the SDK has no reset call, so the destination keeps `Destination`'s default, which does nothing |
///
/// A `screen_name` property of a screen event is replaced by the screen's name, with a problem when they
/// differed. To keep identify, group and alias events from reaching this destination at all, route them
/// elsewhere:
///
/// ```swift
/// let analytics = AnalyticsClient(
///     processors: [.route(kinds: [.identify, .group, .alias], to: ["firebase"])],
///     destinations: [GoogleAnalyticsDestination(adapter: googleSDK), firebase]
/// )
/// ```
///
/// It lives in this example, not in Tally: the SDK is the article's. Tally's built-in vendor destinations
/// wrap real SDKs (Firebase, which is how an iOS app reaches Google Analytics, Mixpanel, Amplitude and
/// Segment); this one shows how an app writes its own for an SDK Tally does not know.
public struct GoogleAnalyticsDestination: Destination {
    /// The destination's name. Default `google`.
    public let name: String
    private let sdk: VendorClient<any GoogleAnalyticsAdapter>

    /// Creates a destination calling `adapter`, normally the Google SDK.
    ///
    /// - Parameters:
    ///   - adapter: receives the SDK's call.
    ///   - name: the destination's name. Default `google`.
    public init(adapter: any GoogleAnalyticsAdapter, name: String = "google") {
        self.name = name
        self.sdk = VendorClient(adapter)
    }

    /// Transforms the event into the SDK's call and makes it.
    ///
    /// - Throws: a `vendor_limit` ``Problem`` with outcome `dropped` for identify, group and alias events,
    ///   which the SDK has no call for.
    public func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let event = envelope.event
        switch event.kind {
        case .track:
            sdk.client.trackEvent(with: event.name, properties: event.properties.foundationValue)
        case .screen:
            var properties = event.properties
            if let existing = properties["screen_name"], existing != .string(event.name) {
                context.report(
                    Problem(
                        .vendorLimit,
                        "The Google SDK takes \"screen_name\" from the screen event's name; the property of that name was replaced",
                        outcome: .sanitized, eventName: event.reportName, path: "/properties/screen_name"))
            }
            properties["screen_name"] = .string(event.name)
            sdk.client.trackEvent(with: "screen_view", properties: properties.foundationValue)
        case .identify, .group, .alias:
            throw Problem(
                .vendorLimit, "The Google SDK has no call for \(event.kind.rawValue) events", outcome: .dropped,
                eventName: event.reportName)
        }
    }
}
