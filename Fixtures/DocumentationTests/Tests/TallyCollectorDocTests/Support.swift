import Foundation
import Tally
import TallyCollector

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// What the collector's articles leave implicit: a plan file, the destinations an app assembles, the app
// under test, and a checkout flow that sends to the collector.

/// The examples' tracking plan, as "Running the collector" loads it.
let planURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples/tracking-plan.yaml")

/// A stand-in for XCTest's UI-testing application (XCUITest is not on Linux): what the articles call.
final class XCUIApplication {
    var launchEnvironment: [String: String] = [:]
    var buttons = Buttons()

    func launch() {}

    struct Buttons {
        subscript(_ identifier: String) -> Button { Button() }
    }

    struct Button {
        func tap() {}
    }
}

/// The checkout under test: it sends "Order Completed" to the collector at `url`, tagged with `session`.
func runCheckoutAgainst(_ url: URL, session: String) async throws {
    var request = URLRequest(url: url.appendingPathComponent("v1/track"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue(session, forHTTPHeaderField: CollectorProtocol.sessionHeader)
    request.httpBody = Data(#"{"event": "Order Completed", "userId": "u1"}"#.utf8)
    let (_, response) = try await URLSession.shared.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
}

/// A stand-in for the helper "Testing with the collector" leaves to the reader, which runs `tally collect
/// --port 0` in a `Process` and reads its address from the first line it prints. Here the same server runs in
/// this process (the fixture cannot count on a built `tally`, nor on `Process` on every platform it compiles
/// for); `terminate()` stops it as a signal stops the command, without waiting.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
struct TallyCollectProcess: Sendable {
    let url: URL
    private let collector: Collector

    static func start() async throws -> TallyCollectProcess {
        let collector = try await Collector.start()
        return TallyCollectProcess(url: collector.url, collector: collector)
    }

    func terminate() {
        Task { [collector] in await collector.stop() }
    }
}
