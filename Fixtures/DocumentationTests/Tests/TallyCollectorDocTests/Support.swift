import Foundation
import Tally

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
