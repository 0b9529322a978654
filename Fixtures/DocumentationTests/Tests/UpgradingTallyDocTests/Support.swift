// What "Upgrading Tally" leaves implicit: a Google SDK and a test's helper around a `tally collect` process.

import Foundation

/// A Google SDK as the old adapter wrapped it.
final class GoogleSDK: @unchecked Sendable {
    private let lock = NSLock()
    private var tracked: [String] = []
    var names: [String] { lock.withLock { tracked } }

    func trackEvent(with name: String, properties: [String: Any]) {
        lock.withLock { tracked.append(name) }
    }
}

/// A test's helper that runs `tally collect --port 0` in a process.
struct TallyCollectProcess {
    let url: URL

    static func start() async throws -> TallyCollectProcess {
        TallyCollectProcess(url: URL(string: "http://127.0.0.1:8787")!)
    }

    func terminate() {}
}
