import UIKitStandIn

// "Wrapping awkward SDKs" opens with this SDK's interface, as the post it comes from gives it. This module
// compiles it in the Swift 5 language mode, as a vendor ships it: a public static `var` that Swift 6 code
// may not touch, a delegate protocol that is not `Sendable`. The article's wrapper imports it with
// `@preconcurrency`. `UIViewController` comes from UIKitStandIn.

public class ThirdParty {
    public static var delegate: ThirdPartyDelegate?
    public static func loadFeedbackForm(_ id: String) { /* ... */  }
}

public protocol ThirdPartyDelegate {
    func formDidload(_ viewController: UIViewController)
    func formDidFailLoading(error: ThirdPartyError)
}

public struct ThirdPartyError: Error {
    public let description: String  // and no public initializer
}
