// What TallySpy.md leaves implicit: the app's logger.

struct EventLogger {
    let hippoAnalyticsClient: any HippoAnalyticsClient

    func log(name: String, properties: [String: Any]?) {
        hippoAnalyticsClient.logEvent(named: name, properties: properties)
    }
}
