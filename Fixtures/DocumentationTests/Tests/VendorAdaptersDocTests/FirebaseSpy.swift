// Vendor adapters: "Testing a destination with a spy adapter".

import Foundation
import Tally
import Testing

// @unchecked Sendable: `recorded` is only touched while `lock` is held.
final class FirebaseSpy: FirebaseAnalyticsAdapter, @unchecked Sendable {
    enum Call: Equatable {
        case logEvent(String, parameters: [String: PropertyValue]?)
        case setUserID(String?)
        case setUserProperty(String?, forName: String)
    }

    private let lock = NSLock()
    private var recorded: [Call] = []
    var calls: [Call] { lock.withLock { recorded } }

    func logEvent(_ name: String, parameters: [String: Any]?) {
        let parameters = parameters.flatMap { [String: PropertyValue](any: $0) }
        lock.withLock { recorded.append(.logEvent(name, parameters: parameters)) }
    }
    func setUserID(_ userID: String?) { lock.withLock { recorded.append(.setUserID(userID)) } }
    func setUserProperty(_ value: String?, forName name: String) {
        lock.withLock { recorded.append(.setUserProperty(value, forName: name)) }
    }
}

final class ProblemCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Problem] = []
    var problems: [Problem] { lock.withLock { stored } }
    func append(_ problem: Problem) { lock.withLock { stored.append(problem) } }
}

@Test func firebaseNamesAreSanitized() throws {
    let spy = FirebaseSpy()
    let collector = ProblemCollector()
    let context = DestinationContext(destination: "firebase") { collector.append($0) }
    let event = Event("menu item-ordered", ["item_name": "Pizza"])
    try FirebaseDestination(adapter: spy).receive(
        Envelope(event: event, messageId: MessageID(prefix: 1, sequence: 1), timestamp: Date(), anonymousId: "a"),
        context: context)
    #expect(spy.calls == [.logEvent("menu_item_ordered", parameters: ["item_name": "Pizza"])])
    #expect(collector.problems.map(\.path) == ["/name"])
}

@Test func throughTheClient() async {
    let spy = FirebaseSpy()
    let analytics = AnalyticsClient(destinations: [FirebaseDestination(adapter: spy)])
    analytics.track("menu item-ordered", ["item_name": "Pizza"])
    await analytics.flush()
    #expect(spy.calls == [.logEvent("menu_item_ordered", parameters: ["item_name": "Pizza"])])
    #expect(analytics.statistics.destinations["firebase"]?.delivered == 1)
    #expect(analytics.statistics.recentProblems.map(\.code) == [.vendorLimit])
}
