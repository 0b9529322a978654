import Foundation

/// Segment's `Analytics` (analytics-swift): its typed and untyped event calls, with Segment's signatures
/// and default arguments. It sends nothing.
public class Analytics {
    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    // Typed forms.
    public func track<P: Codable>(name: String, properties: P?) {}
    public func track(name: String) {}
    public func identify<T: Codable>(userId: String, traits: T?) {}
    public func identify<T: Codable>(traits: T) {}
    public func identify(userId: String) {}
    public func screen<P: Codable>(title: String, category: String? = nil, properties: P?) {}
    public func screen(title: String, category: String? = nil) {}
    public func group<T: Codable>(groupId: String, traits: T?) {}
    public func group(groupId: String) {}
    public func alias(newId: String) {}

    // Untyped forms.
    public func track(name: String, properties: [String: Any]? = nil) {}
    public func identify(userId: String, traits: [String: Any]? = nil) {}
    public func screen(title: String, category: String? = nil, properties: [String: Any]? = nil) {}
    public func group(groupId: String, traits: [String: Any]?) {}

    public func reset() {}
    public func flush() {}
}

/// Segment's configuration.
public class Configuration {
    public init(writeKey: String) {}
}
