// What TallyTesting's doc-comment examples leave implicit: the app's code under test, its SDKs' protocols,
// the spies an example uses without declaring, a UI test's `app`.

import Foundation
import Tally
import TallySpy
import TallyTesting

struct User: Equatable, Sendable {
    let id: Int
    let name: String
}

@Spy
protocol UserService: Sendable {
    func fetch(id: Int) async throws -> User
    func log(_ message: String)
    func delete(id: Int)
}

@Spy
protocol Tracker {
    func track(_ name: String)
}

@Spy
protocol FeedbackSDK {
    func setDelegate(_ delegate: AnyObject?)
    func loadForm(_ id: String)
}

@Spy
protocol Formatter {
    func normalize(_ value: inout String)
}

/// A hand-written spy of a feedback SDK.
final class HandWrittenFeedbackSDKSpy: Sendable {
    let calls = CallRecorder()
}

final class GoogleSDKSpy: Sendable {
    let calls = CallRecorder()
}

protocol HippoAnalyticsClientInterface {
    func logEvent(named name: String, properties: [String: Any]?)
}

struct EventLogger {
    let hippoAnalyticsClient: any HippoAnalyticsClientInterface

    func log(name: String, properties: [String: Any]?) {
        hippoAnalyticsClient.logEvent(named: name, properties: properties)
    }
}

struct MenuItem {
    let name: String
    static let pizza = MenuItem(name: "Pizza")
}

final class MapScreenModel {}

protocol ThirdPartyFeedbackSDK {
    static func loadFeedbackForm(_ id: String)
}

struct FeedbackLoader {
    let sdk: any ThirdPartyFeedbackSDK.Type
    func load(_ id: String) throws { sdk.loadFeedbackForm(id) }
}

struct AsyncFeedbackLoader {
    let sdk: any ThirdPartyFeedbackSDK.Type
    func load(_ id: String) async throws {
        await Task.yield()
        sdk.loadFeedbackForm(id)
    }
}

struct Form: Equatable, Sendable {
    let id: String
    static let empty = Form(id: "")
}

protocol FeedbackService {
    func load(_ id: String) throws -> Form
}

struct MultipleFormLoadError: Error {}

final class OrderViewModel {
    func addOrRemoveFromOrder() {}
}

extension Event {
    static let loginTapped = Event("login_tapped", ["action": "tap"])
    static func menuItemDetailVisited(itemName: String) -> Event {
        Event("menu_item_detail_visited", ["item_name": .string(itemName)])
    }
}

struct LoginViewModel {
    let analytics: any AnalyticsTracking
    func login() { analytics.track(.loginTapped) }
    func wakeup() { analytics.track(.screen("Login")) }
}

struct MenuItemDetailModel {
    let item: MenuItem
    let analytics: any AnalyticsTracking
    func onAppear() { analytics.track(.menuItemDetailVisited(itemName: item.name)) }
    func removeFromOrder() {}
}

struct CheckoutModel {
    let analytics: any AnalyticsTracking
    func checkout() { analytics.track("checkout_completed") }
}

/// A UI test's application, as XCUIApplication offers it.
final class App {
    final class Button { func tap() {} }
    struct Buttons { subscript(_ label: String) -> Button { Button() } }
    var launchEnvironment: [String: String] = [:]
    var buttons: Buttons { Buttons() }
    func launch() {}
    func send(_ command: String) throws {}
}

func launchApp(environment: [String: String]) throws -> App { App() }

/// The backend a destination under test delivers to.
final class FakeBackend: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [Envelope] = []
    var receivedEvents: [Envelope] { lock.withLock { events } }
    func receive(_ envelope: Envelope) { lock.withLock { events.append(envelope) } }
    func clear() { lock.withLock { events.removeAll() } }
}

struct MyBackendDestination: Destination {
    let client: FakeBackend
    func receive(_ envelope: Envelope, context: DestinationContext) throws { client.receive(envelope) }
}
