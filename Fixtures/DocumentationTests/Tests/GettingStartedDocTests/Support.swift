// What Getting started leaves implicit: the app's menu item, its logger, and Firebase's class conformed
// once (see "Vendor adapters").

import FirebaseAnalytics
import Tally

struct MenuItem {
    let name: String
    static let pizza = MenuItem(name: "Pizza")
}

/// The app's logger: Apple's `os.Logger` or swift-log's `Logger` have this call.
struct Logger: Sendable {
    func warning(_ message: String) {}
}

let logger = Logger()

extension FirebaseAnalytics.Analytics: @retroactive FirebaseAnalyticsStaticAPI {}
