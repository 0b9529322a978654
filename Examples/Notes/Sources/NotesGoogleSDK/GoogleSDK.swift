import Foundation

/// The third-party Google SDK of "Unit testing the Google SDK integration": a class the app integrates with
/// and has no control over.
///
/// This module plays the vendor's black box. The app sees only this public interface; how it sends
/// events is none of the app's business, and no test of the app may call it.
///
/// ```swift
/// let sdk = GoogleSDK(apiKey: "…", clientSecret: "…")
/// sdk.trackEvent(with: "note_created", properties: ["word_count": 4])
/// ```
///
/// Like many vendor SDKs it has a debug log, which is how the demo shows what the SDK received. Lines read
/// `trackEvent(with: "note_created", properties: [word_count: 4])`, with the properties sorted by name.
public final class GoogleSDK {
    private let apiKey: String
    private let clientSecret: String
    private let debugLog: (@Sendable (String) -> Void)?
    private let lock = NSLock()
    private var sent = 0

    /// Creates a client for one Google project.
    ///
    /// - Parameters:
    ///   - apiKey: the project's API key.
    ///   - clientSecret: the project's client secret.
    ///   - debugLog: receives one line per call the SDK handles; nil (the default) logs nothing.
    public init(apiKey: String, clientSecret: String, debugLog: (@Sendable (String) -> Void)? = nil) {
        self.apiKey = apiKey
        self.clientSecret = clientSecret
        self.debugLog = debugLog
    }

    /// Sends an event to Google.
    ///
    /// - Parameters:
    ///   - name: the event name.
    ///   - properties: the event's parameters: strings, numbers, Booleans, and arrays and dictionaries of
    ///     those.
    public func trackEvent(with name: String, properties: [String: Any]) {
        lock.withLock { sent += 1 }
        debugLog?("trackEvent(with: \"\(name)\", properties: \(Self.describe(properties)))")
    }

    /// How many events this client has sent.
    public var sentEventCount: Int { lock.withLock { sent } }

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
