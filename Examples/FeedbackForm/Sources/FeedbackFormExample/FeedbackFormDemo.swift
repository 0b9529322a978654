import FeedbackThirdParty
import Foundation
import Tally

/// The FeedbackForm scenario for the examples' demo (`swift run --package-path Examples demo`): the model opens forms through the real (simulated)
/// static `ThirdParty` SDK, in both forms of the service; the demo reports what was tracked and every
/// call the wrapper made to the SDK.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public enum FeedbackFormDemo {
    /// Runs the scenario and returns the report, one line each. Touches `ThirdParty`'s static delegate:
    /// run it while nothing else loads feedback forms.
    public static func run() async -> [String] {
        let sdkCalls = DemoLines()
        let trackedLines = DemoLines()
        let tracked = ConsoleDestination(name: "tracked", prefix: "", write: trackedLines.append)
        let analytics = AnalyticsClient(destinations: [tracked])
        let loadFeedback: @Sendable (String) -> Void = { id in
            sdkCalls.append("ThirdParty.loadFeedbackForm(\"\(id)\")")
            ThirdParty.loadFeedbackForm(id)
        }
        let setDelegate: @Sendable ((any ThirdPartyDelegate)?) -> Void = { delegate in
            sdkCalls.append("ThirdParty.delegate = \(delegate.map { "\(type(of: $0))()" } ?? "nil")")
            ThirdParty.delegate = delegate
        }
        let service = ThirdPartyFeedbackService(loadFeedback: loadFeedback, setDelegate: setDelegate)
        let client = FeedbackServiceClient.thirdParty(
            loadFeedback: loadFeedback, setDelegate: setDelegate, timeout: .milliseconds(100))

        var outcomes: [String] = []
        let viaProtocol = FeedbackFormModel(service: service, analytics: analytics)
        let viaClient = FeedbackFormModel(client: client, analytics: analytics)
        outcomes.append("open(\"nps\") via ThirdPartyFeedbackService: \(await viaProtocol.open("nps"))")
        outcomes.append("open(\"survey\") via ThirdPartyFeedbackService: \(await viaProtocol.open("survey"))")
        outcomes.append(
            "open(\"\(ThirdParty.silentFormID)\") via FeedbackServiceClient (100 ms timeout): "
                + "\(await viaClient.open(ThirdParty.silentFormID))")
        await analytics.shutdown()

        var lines = ["outcomes:"]
        lines += outcomes.map { "  \($0)" }
        lines.append("tracked (\(trackedLines.lines.count) events, by FeedbackFormModel):")
        lines += trackedLines.lines.map { "  \($0)" }
        lines.append("ThirdParty received (\(sdkCalls.lines.count) calls, from the SDKBridge wrappers):")
        lines += sdkCalls.lines.map { "  \($0)" }
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
