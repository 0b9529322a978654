import Foundation
import HippoAnalytics
import PartnerMapLive
import Tally
import TallyTesting
import Testing

/// What an app team writes from the README and the DocC articles: every layer, in Swift Testing.
struct MenuTests {
    @Test func onAppearTracksTheVisit() {
        let spy = AnalyticsSpy()
        MenuItemDetailModel(itemName: "Pizza", price: 9.5, analytics: spy).onAppear()
        spy.expectTracked(.menuItemDetailVisited(itemName: "Pizza"))
        spy.expectNothingElse()
    }

    @Test func removingTracksNothing() {
        let spy = AnalyticsSpy()
        MenuItemDetailModel(itemName: "Pizza", price: 9.5, analytics: spy).removeFromOrder()
        spy.expectNothingElse()
    }

    @Test func theHippoDestinationLogsTrackEvents() async {
        let hippo = HippoSpy()
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [HippoDestination(client: hippo), memory])
        MenuItemDetailModel(itemName: "Pizza", price: 9.5, analytics: analytics).addToOrder()
        await analytics.flush()
        hippo.calls.expectCalled(
            "logEvent(named:properties:)", with: "menu_item_ordered", ["item_name": "Pizza", "price": 9.5])
        hippo.calls.expectNothingElse()
        memory.expectTracked(.menuItemOrdered(itemName: "Pizza", price: 9.5))
    }

    // Waiting takes a Duration: iOS 16 / macOS 13, above this package's floors.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func aRecordingFromAnotherProcessReadsBack() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("app.jsonl")
        let recording = try #require(
            try RecordingDestination.fromEnvironment(["TALLY_RECORD": file.path], arguments: [], source: "app"))
        let analytics = AnalyticsClient(destinations: [recording])
        MenuItemDetailModel(itemName: "Pizza", price: 9.5, analytics: analytics).onAppear()
        await analytics.shutdown()

        let reader = RecordingReader(url: file)
        await reader.waitForCount(1)
        reader.expectTracked(.named("menu_item_detail_visited"))
    }
}
