import Foundation

/// Hippo Analytics' client, from "Testing Side Effects": a class with an untyped API, not `Sendable`, as
/// SDKs built in the Swift 5 language mode are. It keeps what it was given, so a test can read it back.
public class HippoAnalyticsClient {
    public private(set) var loggedEvents: [(name: String, properties: [String: Any]?)] = []

    public init(apiKey: String) {}

    public func logEvent(named name: String, properties: [String: Any]? = .none) {
        loggedEvents.append((name, properties))
    }
}
