// What Tally's doc-comment examples leave implicit: the app's types, the SDKs' callbacks, a UI test's `app`.

import Foundation
@preconcurrency import Mixpanel
import Tally
import UIKitStandIn

struct FeedbackForm: Sendable {}

@MainActor func present(_ viewController: UIViewController) {}
@MainActor func showRetry() {}

/// An SDK that answers with a `Result`.
struct ResultFormSDK: Sendable {
    func load(_ id: String, completion: @escaping @Sendable (Result<UIViewController, any Error>) -> Void) {}
}

/// An SDK that answers with a value or an error.
struct TokenSDK: Sendable {
    func fetchToken(_ completion: @escaping @Sendable (String?, (any Error)?) -> Void) {}
}

struct SDKFailure: Error {}

/// A vendor's API key.
let key = "YOUR_KEY"

/// The app's generated rules, as `tally gen` writes them.
enum PlannedEvents {
    static let rules = PlanRules()
}

struct Logger {
    func warning(_ message: String) {}
}

/// App Tracking Transparency's answer, as AppTrackingTransparency gives it.
enum TrackingAuthorizationStatus: UInt {
    case notDetermined, restricted, denied, authorized
}

enum ATTrackingManager {
    static func requestTrackingAuthorization() async -> TrackingAuthorizationStatus { .notDetermined }
}

/// CryptoKit's SHA256, as far as the examples use it.
enum SHA256 {
    static func hash(data: Data) -> [UInt8] { Array(data) }
}

/// A UI test's application, as XCUIApplication offers it.
final class App {
    struct Element { var value: String = "" }
    var launchEnvironment: [String: String] = [:]
    var debugView = Element()
}

@MainActor final class DebugView {
    var accessibilityValue: String?
}

// The app's conformance of Mixpanel's instance, as MixpanelAdapter's doc comment writes it (compiled there in
// VendorAdaptersDocTests).
extension MixpanelInstance: @retroactive MixpanelAdapter {
    public func track(event: String?, properties: [String: Any]?) {
        track(event: event, properties: properties.map(Self.mixpanelProperties))
    }
    public func setGroup(groupKey: String, groupID: String) {
        setGroup(groupKey: groupKey, groupID: groupID as any MixpanelType)
    }
    public func peopleSet(properties: [String: Any]) {
        people.set(properties: Self.mixpanelProperties(properties))
    }
    public func groupSet(groupKey: String, groupID: String, properties: [String: Any]) {
        getGroup(groupKey: groupKey, groupID: groupID).set(properties: Self.mixpanelProperties(properties))
    }
    static func mixpanelProperties(_ properties: [String: Any]) -> Properties {
        properties.compactMapValues { $0 as? any MixpanelType }
    }
}
