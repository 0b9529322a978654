// Stand-in for Segment's analytics-swift 1.10.0 (github.com/segmentio/analytics-swift, tag 1.10.0), module
// `Segment`. Mirrors, from Sources/Segment/Analytics.swift, Events.swift, Configuration.swift and Errors.swift, the
// declarations Tally's SegmentAdapter, docs and conformances touch, with the SDK's labels, optionality,
// defaults and generic constraints (`Encodable`). Bodies do nothing.

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Segment's client (Sources/Segment/Analytics.swift). Its `configuration` is internal in the SDK, so it
/// is not here.
public class Analytics {
    /// Enables debug logging.
    public static var debugLogsEnabled = false

    public init(configuration: Configuration) {}

    /// Sources/Segment/Analytics.swift: a completion, defaulting to nil.
    public func flush(completion: (() -> Void)? = nil) {}

    public func reset() {}
}

// Sources/Segment/Events.swift: the typed forms.
extension Analytics {
    public func track<P: Encodable>(name: String, properties: P?) {}
    public func track(name: String) {}
    public func identify<T: Encodable>(userId: String, traits: T?) {}
    public func identify<T: Encodable>(traits: T) {}
    public func identify(userId: String) {}
    public func screen<P: Encodable>(title: String, category: String? = nil, properties: P?) {}
    public func screen(title: String, category: String? = nil) {}
    public func group<T: Encodable>(groupId: String, traits: T?) {}
    public func group(groupId: String) {}
    public func alias(newId: String) {}
}

// Sources/Segment/Events.swift: the untyped forms, which SegmentAdapter mirrors. `group`'s traits have no
// default, the others' do.
extension Analytics {
    public func track(name: String, properties: [String: Any]? = nil) {}
    public func identify(userId: String, traits: [String: Any]? = nil) {}
    public func screen(title: String, category: String? = nil, properties: [String: Any]? = nil) {}
    public func group(groupId: String, traits: [String: Any]?) {}
}

/// Segment's configuration (Sources/Segment/Configuration.swift): the builder methods the docs call. The SDK
/// keeps the closures and calls them on its own queues.
public class Configuration {
    public init(writeKey: String) {}

    @discardableResult
    public func apiHost(_ value: String) -> Configuration { self }

    @discardableResult
    public func requestFactory(_ value: @escaping (URLRequest) -> URLRequest) -> Configuration { self }

    @discardableResult
    public func errorHandler(_ value: @escaping (Error) -> Void) -> Configuration { self }
}

/// The errors the SDK hands to `errorHandler` (Sources/Segment/Errors.swift), with the SDK's cases and
/// payloads.
public indirect enum AnalyticsError: Error {
    case storageUnableToCreate(String)
    case storageUnableToWrite(String)
    case storageUnableToRename(String)
    case storageUnableToOpen(String)
    case storageUnableToClose(String)
    case storageInvalid(String)
    case storageUnknown(Error)

    case networkUnexpectedHTTPCode(URL?, Int)
    case networkServerLimited(URL?, Int)
    case networkServerRejected(URL?, Int)
    case networkUnknown(URL?, Error)
    case networkInvalidData

    case jsonUnableToSerialize(Error)
    case jsonUnableToDeserialize(Error)
    case jsonUnknown(Error)

    case pluginError(Error)

    case enrichmentError(String)

    case settingsFail(AnalyticsError)
    case batchUploadFail(AnalyticsError)
}
