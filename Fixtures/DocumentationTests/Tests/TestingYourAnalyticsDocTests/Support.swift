// What "Testing your analytics" leaves implicit: the menu's model, a login screen's model, Firebase's
// spy adapter, an envelope and a delivery context, and an app launched with TALLY_RECORD (here, in
// process: a client whose recording destination comes from that environment).

import Foundation
import Tally
import TallyTesting
import Testing

struct MenuItem: Equatable {
    let name: String
    static let pizza = MenuItem(name: "Pizza")
}

struct Order {
    var items: [MenuItem]
}

extension Event {
    static func menuItemOrdered(itemName: String) -> Event {
        Event("menu_item_ordered", ["item_name": .string(itemName)])
    }
}

/// "TDD with a Spy"'s model: adding an item tracks the order, removing it tracks nothing.
final class MenuItemDetailModel {
    let item: MenuItem
    private(set) var order: Order
    let analytics: any AnalyticsTracking

    init(item: MenuItem, order: Order, analytics: any AnalyticsTracking) {
        self.item = item
        self.order = order
        self.analytics = analytics
    }

    func addOrRemoveFromOrder() {
        if let index = order.items.firstIndex(of: item) {
            order.items.remove(at: index)
        } else {
            order.items.append(item)
            analytics.track(.menuItemOrdered(itemName: item.name))
        }
    }
}

/// "Testing analytics in an iOS app"'s login screen.
struct LoginScreenModel {
    let analytics: any AnalyticsTracking
    func wakeup() { analytics.track(.screen("Login")) }
    func login() { analytics.track(Event("login_tapped", ["action": "tap"])) }
    func signUp() { analytics.track(Event("sign_up_tapped")) }
}

final class FirebaseSDKSpy: FirebaseAnalyticsAdapter, Sendable {
    let calls = CallRecorder()
    func logEvent(_ name: String, parameters: [String: Any]?) { calls.record(arguments: name, parameters) }
    func setUserID(_ userID: String?) { calls.record(arguments: userID) }
    func setUserProperty(_ value: String?, forName name: String) { calls.record(arguments: value, name) }
}

func envelope(_ event: Event) -> Envelope {
    Envelope(event: event, messageId: MessageID(prefix: 1, sequence: 1), timestamp: Date(), anonymousId: "a")
}

let context = DestinationContext(destination: "firebase") { problem in Issue.record("\(problem)") }

/// A fresh folder for one test, removed when the test is done.
final class TemporaryFolder: Sendable {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tally-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The app under test, started with `environment`: it shows the login screen, and tracks each tap.
final class LaunchedApp: Sendable {
    private let analytics: AnalyticsClient

    init(environment: [String: String]) throws {
        let recording = try #require(try RecordingDestination.fromEnvironment(environment, arguments: []))
        analytics = AnalyticsClient(destinations: [recording])
        analytics.track(.screen("Login"))
    }

    func tap(_ identifier: String) throws {
        analytics.track(Event(identifier, ["action": "tap"]))
    }

    func quit() async { await analytics.shutdown() }
}
