import Foundation

/// A stand-in for a vendor's analytics SDK, written the way such SDKs are: a class, not `Sendable`, with an
/// untyped `[String: Any]` API.
public final class HippoAnalyticsClient {
    public private(set) var logged: [String] = []

    public init() {}

    public func logEvent(named name: String, properties: [String: Any]?) {
        logged.append(name)
    }
}
