// What the seed's spy tests: the app's logger, which passes every event on to Hippo Analytics.

struct EventLogger {
    let hippoAnalyticsClient: any HippoAnalyticsClientInterface

    func log(name: String, properties: [String: Any]?) {
        hippoAnalyticsClient.logEvent(named: name, properties: properties)
    }
}
