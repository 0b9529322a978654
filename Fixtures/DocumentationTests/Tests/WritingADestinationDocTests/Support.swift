// What "Writing a destination" leaves implicit: the app's logger, a logger for tests, and an envelope.

import Foundation
import Tally

/// The app's logger (Apple's `os.Logger` and swift-log's `Logger` have this call).
struct Logger: Sendable {
    func info(_ message: String) {}
}

let testLogger = Logger()

let envelope = Envelope(
    event: Event("menu_item_ordered", ["item_name": "Pizza"]),
    messageId: MessageID(prefix: 1, sequence: 1), timestamp: Date(), anonymousId: "a"
)
