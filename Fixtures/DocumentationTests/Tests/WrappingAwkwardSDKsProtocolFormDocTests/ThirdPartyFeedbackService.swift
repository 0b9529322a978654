// Wrapping awkward SDKs: the wrapper's protocol form, in a file that imports Foundation too.

import Foundation
import Tally
@preconcurrency import ThirdPartySDK  // the vendor's module, built in the Swift 5 language mode
import UIKitStandIn

protocol FeedbackService {
    @MainActor func load(_ id: String) async throws -> UIViewController
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)  // the timeout's Clock and Duration
final class ThirdPartyFeedbackService: FeedbackService {
    private let bridge = SDKBridge<UIViewController>()  // a second load throws BridgeError.busy
    private let loadFeedback: @MainActor (String) -> Void
    private let setDelegate: @MainActor ((any ThirdPartyDelegate)?) -> Void
    private let clock: any Clock<Duration>

    init(
        loadFeedback: @escaping @MainActor (String) -> Void = { ThirdParty.loadFeedbackForm($0) },
        setDelegate: @escaping @MainActor ((any ThirdPartyDelegate)?) -> Void = { ThirdParty.delegate = $0 },
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.loadFeedback = loadFeedback
        self.setDelegate = setDelegate
        self.clock = clock
    }

    @MainActor
    func load(_ id: String) async throws -> UIViewController {
        // `self.clock`: where Foundation is imported, a bare `clock` also names the C function clock().
        try await bridge.call(timeout: .seconds(15), clock: self.clock) { completion in
            setDelegate(FormDelegate(completion))
            loadFeedback(id)
        } cleanup: {
            setDelegate(nil)
        }
    }
}
