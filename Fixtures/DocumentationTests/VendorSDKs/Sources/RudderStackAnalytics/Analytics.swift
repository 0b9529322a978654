// Stand-in for RudderStack's Swift SDK 1.3.1 (github.com/rudderlabs/rudder-sdk-swift, tag 1.3.1), module
// `RudderStackAnalytics`. Mirrors the client a setup file creates and the public type names the SDK shares
// with Tally's: `Analytics` and `Properties` from Sources/RudderStackAnalytics/Base/Analytics.swift,
// `Configuration` from Base/Configuration.swift, `RudderOption` from Events/RudderOption.swift and the
// `Event` protocol from Events/Event.swift (its requirements abridged to the first two). Bodies do nothing.

import Foundation

/// Event properties.
public typealias Properties = [String: Any]

/// RudderStack's client.
public class Analytics {
    public init(configuration: Configuration) {}

    public func track(name: String, properties: Properties? = nil, options: RudderOption? = nil) {}
}

/// RudderStack's configuration; the SDK's defaulted parameters after `dataPlaneUrl` are left out.
public class Configuration: NSObject {
    public init(writeKey: String, dataPlaneUrl: String) {}
}

/// Per-call options.
public class RudderOption: NSObject {
    public init(integrations: [String: Any]? = nil, customContext: [String: Any]? = nil) {}
}

/// The base protocol of RudderStack's event types. Shares its name with Tally's `Event`.
public protocol Event: Codable {
    var anonymousId: String? { get set }
    var userId: String? { get set }
}
