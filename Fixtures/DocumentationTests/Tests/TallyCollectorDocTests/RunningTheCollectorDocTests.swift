import Foundation
import TallyCollector
import TallyPlan
import Testing

// "Running the collector": an embedded collector with a plan.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
@Test func embeddedCollectorWithAPlan() async throws {
    var configuration = Collector.Configuration()
    let plan = try #require(PlanLoader.load(contentsOf: planURL).plan)
    configuration.plan = plan
    let collector = try await Collector.start(configuration)
    defer { Task { await collector.stop() } }
    #expect(collector.url.host == "127.0.0.1")
}
