import HippoAnalytics

/// The article's one-to-one mirror of `HippoAnalyticsClient`'s interface, so ``EventLogger`` can be tested
/// with a spy in the client's place.
///
/// It is `Sendable` because ``EventLogger`` calls it from the analytics client's delivery thread; the
/// Hippo client is documented as safe from any thread.
public protocol HippoAnalyticsClientInterface: Sendable {
    /// Hippo's `logEvent(named:properties:)`.
    func logEvent(named name: String, properties: [String: Any]?)
}

// Because `HippoAnalyticsClientInterface` maps `HippoAnalyticsClient` one-to-one, the client conforms with
// no extra code.
extension HippoAnalyticsClient: HippoAnalyticsClientInterface {}
