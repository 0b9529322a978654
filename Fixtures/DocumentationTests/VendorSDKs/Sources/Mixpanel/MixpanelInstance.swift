// Stand-in for mixpanel-swift 6.5.1 (github.com/mixpanel/mixpanel-swift, tag 6.5.1), module `Mixpanel`.
// Mirrors the declarations Tally's MixpanelAdapter, docs and conformances touch, with the SDK's labels,
// optionality, defaults and `open`/`public`: Sources/Mixpanel.swift (`Mixpanel`), Sources/MixpanelInstance.swift
// (`MixpanelInstance`, `Properties`), Sources/People.swift, Sources/Group.swift and Sources/MixpanelType.swift.
// Bodies do nothing.

import Foundation

/// Mixpanel's property dictionary (Sources/MixpanelInstance.swift).
public typealias Properties = [String: MixpanelType]

/// The entry point (Sources/Mixpanel.swift).
open class Mixpanel {
    #if !os(OSX) && !os(watchOS)
    @discardableResult
    open class func initialize(
        token apiToken: String,
        trackAutomaticEvents: Bool,
        flushInterval: Double = 60,
        instanceName: String? = nil,
        optOutTrackingByDefault: Bool = false,
        useUniqueDistinctId: Bool = false,
        superProperties: Properties? = nil,
        serverURL: String? = nil,
        useGzipCompression: Bool = false
    ) -> MixpanelInstance {
        MixpanelInstance.main
    }
    #endif

    open class func getInstance(name: String) -> MixpanelInstance? { nil }

    open class func mainInstance() -> MixpanelInstance { MixpanelInstance.main }
}

/// One Mixpanel project's client (Sources/MixpanelInstance.swift).
open class MixpanelInstance {
    static let main = MixpanelInstance()

    init() {}

    /// The current user's distinct id, which `identify` sets and `reset` replaces with a new anonymous one.
    open var distinctId = ""
    open var anonymousId: String?
    /// The people (user profile) API.
    open var people: People! = People()

    public func identify(distinctId: String, usePeople: Bool = true, completion: (() -> Void)? = nil) {}

    public func createAlias(
        _ alias: String, distinctId: String, usePeople: Bool = true, andIdentify: Bool = true,
        completion: (() -> Void)? = nil
    ) {}

    public func reset(completion: (() -> Void)? = nil) {}

    public func flush(performFullFlush: Bool = false, completion: (() -> Void)? = nil) {}

    public func track(event: String?, properties: Properties? = nil) {}

    public func getGroup(groupKey: String, groupID: MixpanelType) -> Group { Group() }

    public func setGroup(groupKey: String, groupID: MixpanelType) {}

    public func setGroup(groupKey: String, groupIDs: [MixpanelType]) {}
}

/// The people API (Sources/People.swift).
open class People {
    init() {}
    open func set(properties: Properties) {}
    open func set(property: String, to: MixpanelType) {}
}

/// A group profile (Sources/Group.swift).
open class Group {
    init() {}
    open func set(properties: Properties) {}
    open func set(property: String, to: MixpanelType) {}
}
