import MenuExample
import TallyTesting

/// The article's `HippoAnalyticsClientInterfaceSpy`, on a `CallRecorder`: one line per method instead of an
/// array of `Event` structs, and thread-safe, because `EventLogger` calls it from a delivery thread.
final class HippoAnalyticsClientInterfaceSpy: HippoAnalyticsClientInterface, Sendable {
    let calls = CallRecorder()

    func logEvent(named name: String, properties: [String: Any]?) {
        calls.record(arguments: name, properties)
    }
}
