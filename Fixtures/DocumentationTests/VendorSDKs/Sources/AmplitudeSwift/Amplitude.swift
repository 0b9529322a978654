import Foundation

/// Amplitude's `Amplitude` (Amplitude-Swift): its event and identity calls with Amplitude's signatures,
/// each returning the instance. It sends nothing.
public class Amplitude {
    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    @discardableResult
    public func track(event: BaseEvent, options: EventOptions? = nil, callback: EventCallback? = nil) -> Amplitude {
        self
    }
    @discardableResult
    public func track(eventType: String, eventProperties: [String: Any]? = nil, options: EventOptions? = nil) -> Amplitude {
        self
    }
    @discardableResult
    public func identify(userProperties: [String: Any]?, options: EventOptions? = nil) -> Amplitude { self }
    @discardableResult
    public func identify(identify: Identify, options: EventOptions? = nil) -> Amplitude { self }
    @discardableResult
    public func groupIdentify(
        groupType: String, groupName: String, groupProperties: [String: Any]?, options: EventOptions? = nil
    ) -> Amplitude { self }
    @discardableResult
    public func groupIdentify(
        groupType: String, groupName: String, identify: Identify, options: EventOptions? = nil
    ) -> Amplitude { self }
    @discardableResult
    public func setGroup(groupType: String, groupName: String, options: EventOptions? = nil) -> Amplitude { self }
    @discardableResult
    public func setGroup(groupType: String, groupName: [String], options: EventOptions? = nil) -> Amplitude { self }
    @discardableResult
    public func setUserId(userId: String?) -> Amplitude { self }
    @discardableResult
    public func flush() -> Amplitude { self }
    @discardableResult
    public func reset() -> Amplitude { self }
}

public class Configuration {
    public init(apiKey: String) {}
}

public class BaseEvent {
    public init(eventType: String) {}
}

public class EventOptions {
    public init() {}
}

public class Identify {
    public init() {}
}

public typealias EventCallback = (BaseEvent, Int, String) -> Void
