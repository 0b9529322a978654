import Tally
import TallyTesting

/// A spy in Firebase's place. `FirebaseAnalyticsAdapter` mirrors Firebase's class methods one-to-one, so the
/// spy records each call in one line; the destination calls it from its delivery thread, and the tests
/// `flush()` before they expect.
final class FirebaseSpy: FirebaseAnalyticsAdapter, Sendable {
    let calls = CallRecorder()

    func logEvent(_ name: String, parameters: [String: Any]?) { calls.record(arguments: name, parameters) }
    func setUserID(_ userID: String?) { calls.record(arguments: userID) }
    func setUserProperty(_ value: String?, forName name: String) { calls.record(arguments: value, name) }
}
