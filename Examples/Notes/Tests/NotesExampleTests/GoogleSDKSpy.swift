import Tally
import TallyTesting

/// A spy in the Google SDK's place. `GoogleAnalyticsAdapter` mirrors the SDK one-to-one, so the spy
/// records each call in one line. The service calls it from its delivery thread; the recorder is
/// thread-safe, and the tests `flush()` before they expect.
final class GoogleSDKSpy: GoogleAnalyticsAdapter, Sendable {
    let calls = CallRecorder()

    func trackEvent(with name: String, properties: [String: Any]) {
        calls.record(arguments: name, properties)
    }
}
