// Stand-in for Amplitude-Swift 1.18.6 (tag v1.18.6), module `AmplitudeSwift`: the types its calls take and
// the public type names it shares with Tally's. Configuration from Sources/Amplitude/Configuration.swift,
// EventOptions, BaseEvent and Identify from Sources/Amplitude/Events/, EventCallback from
// Sources/Amplitude/Types.swift, Identity from Sources/Amplitude/Identity.swift, Diagnostics from
// Sources/Amplitude/Utilities/Diagonostics.swift (the SDK's spelling). The initializers keep the SDK's
// first parameter; its many defaulted ones after it are left out.

import Foundation

/// Amplitude's configuration.
public class Configuration {
    public init(apiKey: String) {}
}

/// Per-call options.
open class EventOptions {
    public init() {}
}

/// An event.
open class BaseEvent: EventOptions {
    public init(eventType: String) {}
}

/// A user or group property operation.
open class Identify {
    public init() {}
}

/// Called with an event, a status code and a message once the event is sent or rejected.
public typealias EventCallback = (BaseEvent, Int, String) -> Void

/// The user's identity, as Amplitude holds it. Shares its name with Tally's `Identity`.
public struct Identity: AnalyticsIdentity {
    public var userId: String?
    public var deviceId: String?
    public var userProperties: [String: Any] = [:]

    init() {}
}

/// Malformed events and error logs the SDK collects about itself, with no public initializer.
public class Diagnostics {
    init() {}
}
