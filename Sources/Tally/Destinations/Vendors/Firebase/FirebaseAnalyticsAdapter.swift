/// The calls ``FirebaseDestination`` makes, mirroring Firebase Analytics one to one.
///
/// Firebase's own API is made of class methods (`Analytics.logEvent(_:parameters:)` and its siblings),
/// so the app does not conform Firebase to this protocol: it conforms it to
/// ``FirebaseAnalyticsStaticAPI``, whose requirements are the same calls as `static`, and creates the
/// destination with ``FirebaseDestination/init(sdk:name:limits:)``:
///
/// ```swift
/// import FirebaseAnalytics
/// import Tally
///
/// extension FirebaseAnalytics.Analytics: @retroactive FirebaseAnalyticsStaticAPI {}
///
/// let firebase = FirebaseDestination(sdk: FirebaseAnalytics.Analytics.self)
/// ```
///
/// This instance protocol is what tests implement with a spy, and what an app implements when it wraps
/// Firebase in an object of its own:
///
/// ```swift
/// final class FirebaseSpy: FirebaseAnalyticsAdapter {
///     private(set) var events: [String] = []
///     func logEvent(_ name: String, parameters: [String: Any]?) { events.append(name) }
///     func setUserID(_ userID: String?) {}
///     func setUserProperty(_ value: String?, forName name: String) {}
/// }
/// let destination = FirebaseDestination(adapter: FirebaseSpy())
/// ```
///
/// The protocol is not `Sendable`, like the SDK; ``FirebaseDestination`` calls it from one thread at a
/// time.
public protocol FirebaseAnalyticsAdapter {
    /// Logs an app event: Firebase's `Analytics.logEvent(_:parameters:)`.
    ///
    /// - Parameters:
    ///   - name: the event name, already within ``FirebaseLimits``.
    ///   - parameters: `String`, `Int` and `Double` values (and the `items` array of dictionaries), or nil
    ///     when the event has none.
    func logEvent(_ name: String, parameters: [String: Any]?)

    /// Sets or clears the user id: Firebase's `Analytics.setUserID(_:)`. ``FirebaseDestination/reset()``
    /// clears it with nil; Firebase's `resetAnalyticsData()` has no requirement because the destination
    /// never calls it.
    func setUserID(_ userID: String?)

    /// Sets or clears one user property: Firebase's `Analytics.setUserProperty(_:forName:)`.
    func setUserProperty(_ value: String?, forName name: String)
}

/// Firebase Analytics' class methods, as requirements a type meets with `static` (or `class`) methods.
///
/// `FirebaseAnalytics.Analytics` has exactly these, so its conformance is empty; pass the type itself to
/// ``FirebaseDestination/init(sdk:name:limits:)``:
///
/// ```swift
/// extension FirebaseAnalytics.Analytics: @retroactive FirebaseAnalyticsStaticAPI {}
/// let firebase = FirebaseDestination(sdk: FirebaseAnalytics.Analytics.self)
/// ```
///
/// Tally's client is `AnalyticsClient`, so a file that imports both modules names Firebase's `Analytics`
/// without qualifying it.
public protocol FirebaseAnalyticsStaticAPI {
    /// Logs an app event: `Analytics.logEvent(_:parameters:)`.
    static func logEvent(_ name: String, parameters: [String: Any]?)

    /// Sets or clears the user id: `Analytics.setUserID(_:)`.
    static func setUserID(_ userID: String?)

    /// Sets or clears one user property: `Analytics.setUserProperty(_:forName:)`.
    static func setUserProperty(_ value: String?, forName name: String)
}

/// Turns a type with Firebase's class methods into an instance adapter.
struct FirebaseStaticAdapter<SDK: FirebaseAnalyticsStaticAPI>: FirebaseAnalyticsAdapter {
    func logEvent(_ name: String, parameters: [String: Any]?) { SDK.logEvent(name, parameters: parameters) }
    func setUserID(_ userID: String?) { SDK.setUserID(userID) }
    func setUserProperty(_ value: String?, forName name: String) { SDK.setUserProperty(value, forName: name) }
}
