import Foundation
import HippoAnalytics
import Tally

/// The Menu scenario for the examples' demo (`swift run --package-path Examples demo`): the detail screen of a pizza appears, the user adds it to the
/// order, then removes it; ``EventLogger`` sends what was logged to the simulated Hippo Analytics client.
public enum MenuDemo {
    /// Runs the scenario and returns the report, one line each. `extra` destinations (the demo's
    /// `--collector`) receive every event too.
    public static func run(alsoSendingTo extra: [any Destination] = []) async -> [String] {
        let hippoLog = DemoLines()
        let trackedLines = DemoLines()
        let tracked = ConsoleDestination(name: "tracked", prefix: "", write: trackedLines.append)
        let analytics = AnalyticsClient(
            destinations: [
                EventLogger(hippoAnalyticsClient: HippoAnalyticsClient(apiKey: "abcd", debugLog: hippoLog.append)),
                tracked,
            ] + extra)
        let pizza = MenuItem(name: "Margherita", price: 9.5)
        let viewModel = MenuItemDetail.ViewModel(
            item: pizza, orderController: OrderController(), eventLogging: analytics)

        viewModel.onAppear()
        viewModel.addOrRemoveFromOrder()  // added: logged
        viewModel.addOrRemoveFromOrder()  // removed: nothing logged
        await analytics.shutdown()

        var lines = [
            "tracked (\(trackedLines.lines.count) events, by MenuItemDetail.ViewModel; the removal logs nothing):"
        ]
        lines += trackedLines.lines.map { "  \($0)" }
        lines.append("HippoAnalyticsClient received (\(hippoLog.lines.count) calls, from EventLogger):")
        lines += hippoLog.lines.map { "  \($0)" }
        return lines
    }
}

/// Lines collected from any thread, for the demo's report.
final class DemoLines: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    @Sendable func append(_ line: String) { lock.withLock { collected.append(line) } }
    var lines: [String] { lock.withLock { collected } }
}
