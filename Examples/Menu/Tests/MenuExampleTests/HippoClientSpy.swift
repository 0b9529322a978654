import MenuExample
import TallySpy

/// The article's `HippoAnalyticsClientInterfaceSpy`, generated: `@Spy` writes the spy for this restatement
/// of the app's `HippoAnalyticsClientInterface` (which stays in MenuExample, an app module that links no
/// test code). The spy is thread-safe, because `EventLogger` calls it from a delivery thread, and typed:
/// tests expect `.logEvent(named: "test", properties: ["key": "value"])`.
@Spy(restating: "HippoAnalyticsClientInterface")
protocol HippoClient: HippoAnalyticsClientInterface {
    func logEvent(named name: String, properties: [String: Any]?)
}
