// Wrapping awkward SDKs: the delegate that forwards one load's answer to the bridge.

import Tally
import ThirdPartySDK
import UIKitStandIn

/// Forwards one load's answer to the bridge. A new one per call, so a late answer from an
/// earlier call can only ever reach that call's (already ended) completion.
final class FormDelegate: ThirdPartyDelegate {
    let completion: SDKBridge<UIViewController>.Completion
    init(_ completion: SDKBridge<UIViewController>.Completion) { self.completion = completion }

    func formDidload(_ viewController: UIViewController) { completion.succeed(viewController) }
    func formDidFailLoading(error: ThirdPartyError) { completion.fail(error) }
}
