import Tally

/// The article's `EventLogger`: what sends the app's events to Hippo Analytics, through a
/// ``HippoAnalyticsClientInterface`` so a test can put a spy in the client's place.
///
/// In Tally it is a destination: the app's `AnalyticsClient` hands it every event on a delivery thread,
/// so logging never blocks the screen, and it makes the Hippo call.
///
/// | event | Hippo call |
/// |---|---|
/// | track | `logEvent(named: name, properties: properties)` |
/// | screen | `logEvent(named: "screen_viewed", properties: properties + ["screen_name": name])` |
/// | identify, group, alias | none: Hippo has no call for users, so the event is dropped and counted as rejected |
///
/// ```swift
/// let analytics = AnalyticsClient(destinations: [EventLogger(hippoAnalyticsClient: HippoAnalyticsClient(apiKey: key))])
/// let viewModel = MenuItemDetail.ViewModel(item: pizza, orderController: orders, eventLogging: analytics)
/// ```
public struct EventLogger: Destination {
    public let name: String
    private let hippoAnalyticsClient: any HippoAnalyticsClientInterface

    /// Creates the logger.
    ///
    /// - Parameters:
    ///   - hippoAnalyticsClient: the Hippo client in the app, a spy in tests.
    ///   - name: the destination's name. Default `hippo`.
    public init(hippoAnalyticsClient: any HippoAnalyticsClientInterface, name: String = "hippo") {
        self.hippoAnalyticsClient = hippoAnalyticsClient
        self.name = name
    }

    public func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let event = envelope.event
        switch event.kind {
        case .track:
            hippoAnalyticsClient.logEvent(named: event.name, properties: event.properties.foundationValue)
        case .screen:
            var properties = event.properties
            properties["screen_name"] = .string(event.name)
            hippoAnalyticsClient.logEvent(named: "screen_viewed", properties: properties.foundationValue)
        case .identify, .group, .alias:
            throw Problem(
                .init("hippo_unsupported"), "Hippo Analytics has no call for \(event.kind.rawValue) events",
                outcome: .dropped, eventName: event.name, destination: name)
        }
    }
}
