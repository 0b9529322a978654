// Recording calls: "Static SDKs".

import Tally
import TallyTesting
import Testing
import ThirdPartySDK

protocol ThirdPartyFeedbackSDK {
    static func loadFeedbackForm(_ id: String)
    static func isFormCached(_ id: String) -> Bool
}

extension ThirdParty: ThirdPartyFeedbackSDK {}

enum ThirdPartySpy: ThirdPartyFeedbackSDK {
    static func loadFeedbackForm(_ id: String) { CallRecorder.current.record(arguments: id) }
    static func isFormCached(_ id: String) -> Bool { CallRecorder.current.record(default: false, arguments: id) }
}

@Test func loadsTheFormThatIsNotCached() {
    let sdk = CallRecorder()
    sdk.stub("isFormCached(_:)", returning: false)
    CallRecorder.withCurrent(sdk) {
        FeedbackLoader<ThirdPartySpy>().load("some-id")
    }
    sdk.expectCalled("loadFeedbackForm(_:)", with: "some-id")
}

final class FirebaseSpy: FirebaseAnalyticsAdapter, Sendable {
    let calls = CallRecorder()
    func logEvent(_ name: String, parameters: [String: Any]?) { calls.record(arguments: name, parameters) }
    func setUserID(_ userID: String?) { calls.record(arguments: userID) }
    func setUserProperty(_ value: String?, forName name: String) { calls.record(arguments: value, name) }
}

@Test func orderedItemsReachFirebase() async {
    let firebase = FirebaseSpy()
    let analytics = AnalyticsClient(destinations: [FirebaseDestination(adapter: firebase)])
    analytics.track("menu item-ordered", ["item_name": "Pizza"])
    await analytics.flush()
    firebase.calls.expectCalled("logEvent(_:parameters:)", with: "menu_item_ordered", ["item_name": "Pizza"])
    await analytics.shutdown()
}
