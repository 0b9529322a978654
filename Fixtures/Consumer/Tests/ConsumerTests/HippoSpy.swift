import PartnerMapLive
import Tally
import TallyTesting

/// A one-to-one spy of the app's Hippo interface, on a `CallRecorder`.
final class HippoSpy: HippoAnalyticsClientInterface {
    let calls = CallRecorder()

    func logEvent(named name: String, properties: [String: PropertyValue]) {
        calls.record(arguments: name, properties)
    }
}
