// Stand-in for Amplitude-Swift 1.18.6 (github.com/amplitude/Amplitude-Swift, tag v1.18.6), module
// `AmplitudeSwift`. Mirrors, from Sources/Amplitude/Amplitude.swift, the declarations Tally's
// AmplitudeAdapter, docs and conformances touch, with the SDK's labels, optionality, defaults and
// `@discardableResult` returns, and its conformance to AmplitudeCore's `AnalyticsClient`, which the SDK
// re-exports as here. Bodies do nothing.

@_exported import AmplitudeCore
import Foundation

/// Amplitude's client.
public class Amplitude {
    public private(set) var configuration: Configuration

    public var sessionId: Int64 { -1 }

    public var identity: Identity {
        get { Identity() }
        set {}
    }

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    @discardableResult
    public func track(event: BaseEvent, options: EventOptions? = nil, callback: EventCallback? = nil) -> Amplitude {
        self
    }

    @discardableResult
    public func track(eventType: String, eventProperties: [String: Any]? = nil, options: EventOptions? = nil)
        -> Amplitude
    {
        self
    }

    @discardableResult
    public func identify(userProperties: [String: Any]?, options: EventOptions? = nil) -> Amplitude { self }

    @discardableResult
    public func identify(identify: Identify, options: EventOptions? = nil) -> Amplitude { self }

    @discardableResult
    public func groupIdentify(
        groupType: String,
        groupName: String,
        groupProperties: [String: Any]?,
        options: EventOptions? = nil
    ) -> Amplitude { self }

    @discardableResult
    public func groupIdentify(
        groupType: String,
        groupName: String,
        identify: Identify,
        options: EventOptions? = nil
    ) -> Amplitude { self }

    @discardableResult
    public func setGroup(groupType: String, groupName: String, options: EventOptions? = nil) -> Amplitude { self }

    @discardableResult
    public func setGroup(groupType: String, groupName: [String], options: EventOptions? = nil) -> Amplitude { self }

    @discardableResult
    public func flush() -> Amplitude { self }

    @discardableResult
    public func setUserId(userId: String?) -> Amplitude { self }

    public func getUserId() -> String? { nil }

    @discardableResult
    public func reset() -> Amplitude { self }
}

// Sources/Amplitude/Amplitude.swift: the AmplitudeCore conformance, with a second, two-argument `track`
// that returns nothing.
@available(macOS 10.15, iOS 13.0, watchOS 6.0, tvOS 13.0, *)
extension Amplitude: AnalyticsClient {
    public func track(eventType: String, eventProperties: [String: Any]? = nil) {}

    public var optOut: Bool {
        get { false }
        set {}
    }
}
