// What "Recording calls" leaves implicit: the app's logger and its Hippo Analytics interface, the feedback
// service's types, and a loader over a static SDK.

struct EventLogger {
    let hippoAnalyticsClient: any HippoAnalyticsClientInterface

    func log(name: String, properties: [String: Any]?) {
        hippoAnalyticsClient.logEvent(named: name, properties: properties)
    }
}

protocol HippoAnalyticsClientInterface {
    func logEvent(named name: String, properties: [String: Any]?)
}

struct Form: Equatable {
    let title: String
    static let empty = Form(title: "")
}

struct User: Equatable {
    let id: Int
    let name: String
}

struct MultipleFormLoadError: Error {}

/// Loads a feedback form through a static SDK, unless the SDK has it cached.
struct FeedbackLoader<SDK: ThirdPartyFeedbackSDK> {
    func load(_ id: String) {
        if !SDK.isFormCached(id) { SDK.loadFeedbackForm(id) }
    }
}
