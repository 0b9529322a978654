// MixpanelAdapter's doc comment: the app's conformance of Mixpanel's `MixpanelInstance`, as written there,
// against the stand-in of mixpanel-swift 6.5.1.

import Mixpanel
import Tally

extension MixpanelInstance: @retroactive MixpanelAdapter {
    public func track(event: String?, properties: [String: Any]?) {
        track(event: event, properties: properties.map(Self.mixpanelProperties))
    }
    public func setGroup(groupKey: String, groupID: String) {
        setGroup(groupKey: groupKey, groupID: groupID as any MixpanelType)
    }
    public func peopleSet(properties: [String: Any]) {
        people.set(properties: Self.mixpanelProperties(properties))
    }
    public func groupSet(groupKey: String, groupID: String, properties: [String: Any]) {
        getGroup(groupKey: groupKey, groupID: groupID).set(properties: Self.mixpanelProperties(properties))
    }
    static func mixpanelProperties(_ properties: [String: Any]) -> Properties {
        properties.compactMapValues { $0 as? any MixpanelType }
    }
}

let mixpanel = MixpanelDestination(adapter: Mixpanel.mainInstance())
