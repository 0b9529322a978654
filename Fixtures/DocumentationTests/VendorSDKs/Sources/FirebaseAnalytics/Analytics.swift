import Foundation

/// Firebase Analytics' `Analytics` (`FIRAnalytics` in Objective-C): class methods with the Swift
/// signatures Firebase's headers give them. It sends nothing.
open class Analytics: NSObject {
    open class func logEvent(_ name: String, parameters: [String: Any]?) {}
    open class func setUserProperty(_ value: String?, forName name: String) {}
    open class func setUserID(_ userID: String?) {}
    open class func setAnalyticsCollectionEnabled(_ analyticsCollectionEnabled: Bool) {}
    open class func resetAnalyticsData() {}
    open class func appInstanceID() -> String? { nil }
}
