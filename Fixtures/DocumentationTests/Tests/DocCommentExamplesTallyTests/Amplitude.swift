@preconcurrency import AmplitudeSwift
import Foundation
import Tally

// Amplitude's examples: a file that imports AmplitudeSwift, whose `AnalyticsClient` (AmplitudeCore's,
// re-exported) clashes with Tally's, as in an app's file.

// AmplitudeAdapter.
extension Amplitude: @retroactive AmplitudeAdapter {}

let amplitude = AmplitudeDestination(adapter: Amplitude(configuration: Configuration(apiKey: key)))

final class AmplitudeSpy: AmplitudeAdapter {
    private(set) var eventTypes: [String] = []
    func track(eventType: String, eventProperties: [String: Any]?, options: Never?) {
        eventTypes.append(eventType)
    }
    func identify(userProperties: [String: Any]?, options: Never?) {}
    func setUserId(userId: String?) {}
    func setGroup(groupType: String, groupName: String, options: Never?) {}
    func groupIdentify(groupType: String, groupName: String, groupProperties: [String: Any]?, options: Never?) {}
    func reset() {}
}

// AmplitudeDestination.
func amplitudeDestinationExample(amplitude: Amplitude) {
    // AmplitudeSwift has an `AnalyticsClient` too: name Tally's with its module.
    let analytics = Tally.AnalyticsClient(destinations: [AmplitudeDestination(adapter: amplitude)])
    analytics.track("menu_item_ordered", ["item_name": "Pizza"])
    // amplitude.track(eventType: "menu_item_ordered", eventProperties: ["item_name": "Pizza"], options: nil)
}

// AmplitudeLimits.
func amplitudeLimitsExample(amplitude: Amplitude) {
    let destination = AmplitudeDestination(adapter: amplitude, limits: AmplitudeLimits(maximumStringLength: 255))
    _ = destination
}
