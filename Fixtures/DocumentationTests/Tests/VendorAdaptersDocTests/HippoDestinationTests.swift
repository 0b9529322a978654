// Not in the article: runs its HippoDestination with a spy adapter that is a plain class.

import Foundation
import Tally
import Testing

final class HippoSpy: HippoAnalyticsAdapter {
    private(set) var names: [String] = []
    func logEvent(named name: String, properties: [String: Any]?) { names.append(name) }
}

@Test func hippoDestinationCallsItsAdapter() throws {
    let spy = HippoSpy()
    let context = DestinationContext(destination: "hippo") { problem in Issue.record("\(problem)") }
    let envelope = Envelope(
        event: Event("menu_item_ordered"), messageId: MessageID(prefix: 1, sequence: 1), timestamp: Date(),
        anonymousId: "a")
    try HippoDestination(adapter: spy).receive(envelope, context: context)
    #expect(spy.names == ["menu_item_ordered"])
}
