import Foundation

/// Firebase Analytics' `Analytics` class, simulated: the app calls its class methods, as it calls the real
/// Firebase's, and has no control over what happens next.
///
/// Like the real SDK it has no instance and no protocol: Tally's `FirebaseDestination(sdk:)` calls it
/// through `FirebaseAnalyticsStaticAPI`, which the app conforms it to with an empty extension, and tests give
/// `FirebaseDestination(adapter:)` a spy instead, so no test of the app ever calls this type.
///
/// ```swift
/// Analytics.logEvent("search", parameters: ["search_term": "milk", "result_count": 1])
/// ```
///
/// The real SDK drops or cuts what breaks its limits (40-character names, 100-character values) and says
/// so only in the device log; this one keeps what it is given. Its debug log, like the real SDK's with
/// `-FIRDebugEnabled`, is how the demo shows what it received.
public enum Analytics {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var log: (@Sendable (String) -> Void)?
    nonisolated(unsafe) private static var logged = 0

    /// Receives one line per call, such as `logEvent("search", parameters: [result_count: 1, search_term:
    /// "milk"])`; nil (the default) logs nothing. Set it once, at start.
    public static var debugLog: (@Sendable (String) -> Void)? {
        get { lock.withLock { log } }
        set { lock.withLock { log = newValue } }
    }

    /// How many events the SDK has logged since the process started.
    public static var loggedEventCount: Int { lock.withLock { logged } }

    /// Logs an app event.
    ///
    /// - Parameters:
    ///   - name: the event name.
    ///   - parameters: `String`, `Int` and `Double` values, or nil.
    public static func logEvent(_ name: String, parameters: [String: Any]?) {
        lock.withLock { logged += 1 }
        debugLog?("logEvent(\"\(name)\", parameters: \(describe(parameters)))")
    }

    /// Sets or clears the user id.
    public static func setUserID(_ userID: String?) {
        debugLog?("setUserID(\(userID.map { "\"\($0)\"" } ?? "nil"))")
    }

    /// Sets or clears one user property.
    public static func setUserProperty(_ value: String?, forName name: String) {
        debugLog?("setUserProperty(\(value.map { "\"\($0)\"" } ?? "nil"), forName: \"\(name)\")")
    }

    private static func describe(_ parameters: [String: Any]?) -> String {
        guard let parameters else { return "nil" }
        let pairs = parameters.keys.sorted().map { key -> String in
            let value = parameters[key]!
            return "\(key): " + (value is String ? "\"\(value)\"" : "\(value)")
        }
        return "[" + pairs.joined(separator: ", ") + "]"
    }
}
