// Wrapping awkward SDKs: the wrapper's struct form, in a file that imports Foundation too.

import Foundation
import Tally
@preconcurrency import ThirdPartySDK
import UIKitStandIn

struct FeedbackService {
    var load: @MainActor (_ id: String) async throws -> UIViewController
}

extension FeedbackService {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func thirdParty(
        loadFeedback: @escaping @MainActor (String) -> Void = { ThirdParty.loadFeedbackForm($0) },
        setDelegate: @escaping @MainActor ((any ThirdPartyDelegate)?) -> Void = { ThirdParty.delegate = $0 },
        clock: any Clock<Duration> = ContinuousClock()
    ) -> FeedbackService {
        let bridge = SDKBridge<UIViewController>()
        return FeedbackService { id in
            try await bridge.call(timeout: .seconds(15), clock: clock) { completion in
                setDelegate(FormDelegate(completion))
                loadFeedback(id)
            } cleanup: {
                setDelegate(nil)
            }
        }
    }
}
