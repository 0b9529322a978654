// Stand-in for FirebaseAnalytics 12 (Firebase Apple SDK 12.18.0, github.com/firebase/firebase-ios-sdk),
// module `FirebaseAnalytics`: `FIRAnalytics` as Swift sees it from the binary framework's public header
// FIRAnalytics.h (`NS_SWIFT_NAME(Analytics)`, class methods, `init` unavailable). Mirrors the calls Tally's
// FirebaseAnalyticsStaticAPI and docs touch and their siblings in that header. Bodies do nothing.

import Foundation

/// Firebase Analytics (`FIRAnalytics` in Objective-C).
open class Analytics: NSObject {
    /// `+logEventWithName:parameters:`, `NS_SWIFT_NAME(logEvent(_:parameters:))`.
    open class func logEvent(_ name: String, parameters: [String: Any]?) {}
    /// `+setUserPropertyString:forName:`, `NS_SWIFT_NAME(setUserProperty(_:forName:))`.
    open class func setUserProperty(_ value: String?, forName name: String) {}
    open class func setUserID(_ userID: String?) {}
    open class func setAnalyticsCollectionEnabled(_ analyticsCollectionEnabled: Bool) {}
    open class func setSessionTimeoutInterval(_ sessionTimeoutInterval: TimeInterval) {}
    open class func appInstanceID() -> String? { nil }
    open class func resetAnalyticsData() {}
    open class func setDefaultEventParameters(_ parameters: [String: Any]?) {}

    /// `- (instancetype)init NS_UNAVAILABLE`.
    @available(*, unavailable)
    public override init() {}
}
