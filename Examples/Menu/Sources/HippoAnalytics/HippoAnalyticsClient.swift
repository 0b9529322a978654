import Foundation

/// Hippo Analytics' client, from "Testing Side Effects": the third-party library the app logs events with.
///
/// This module plays the vendor's black box. Its public interface is the article's:
///
/// ```swift
/// class HippoAnalyticsClient {
///     init(apiKey: String)
///     func logEvent(named name: String, properties: [String: Any]? = .none)
/// }
/// ```
///
/// plus, as many SDKs have, a debug log, which is how the demo shows what the SDK received. It is safe to
/// call from any thread.
public final class HippoAnalyticsClient: @unchecked Sendable {
    private let apiKey: String
    private let debugLog: (@Sendable (String) -> Void)?
    private let lock = NSLock()
    private var logged = 0

    /// Creates a client for one Hippo Analytics project.
    ///
    /// - Parameters:
    ///   - apiKey: the project's key.
    ///   - debugLog: receives one line per logged event; nil (the default) logs nothing.
    public init(apiKey: String, debugLog: (@Sendable (String) -> Void)? = nil) {
        self.apiKey = apiKey
        self.debugLog = debugLog
    }

    /// Logs an event to Hippo Analytics.
    ///
    /// - Parameters:
    ///   - name: the event name.
    ///   - properties: the event's properties: strings, numbers, Booleans, and arrays and dictionaries of
    ///     those.
    public func logEvent(named name: String, properties: [String: Any]? = .none) {
        lock.withLock { logged += 1 }
        debugLog?("logEvent(named: \"\(name)\", properties: \(properties.map(Self.describe) ?? "nil"))")
    }

    /// How many events this client has logged.
    public var loggedEventCount: Int { lock.withLock { logged } }

    private static func describe(_ properties: [String: Any]) -> String {
        guard !properties.isEmpty else { return "[:]" }
        let pairs = properties.keys.sorted().map { key in "\(key): \(describe(value: properties[key]!))" }
        return "[" + pairs.joined(separator: ", ") + "]"
    }

    private static func describe(value: Any) -> String {
        switch value {
        case let string as String: return "\"\(string)\""
        case let dictionary as [String: Any]: return describe(dictionary)
        case let array as [Any]: return "[" + array.map(describe(value:)).joined(separator: ", ") + "]"
        default: return "\(value)"
        }
    }
}
