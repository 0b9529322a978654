/// The calls ``MixpanelDestination`` makes, mirroring the Mixpanel Swift SDK's `MixpanelInstance`.
///
/// `distinctId` (Mixpanel's `open var distinctId`), `identify(distinctId:usePeople:completion:)`,
/// `createAlias(_:distinctId:usePeople:andIdentify:completion:)` and `reset(completion:)` are Mixpanel's own
/// signatures, so `MixpanelInstance` meets them as it is. The
/// other requirements cannot be mirrored exactly, and the app's conformance forwards them in one line each:
///
/// - Mixpanel's properties are `Properties`, that is `[String: MixpanelType]`, and `MixpanelType` is a
///   Mixpanel protocol Tally cannot name. The adapter takes `[String: Any]?`, the SDK's own value types
///   (`String`, `Int`, `Double`, `Bool`, `NSNull`, arrays and dictionaries), which all conform to
///   `MixpanelType`: ``MixpanelDestination`` converts Tally's big numbers, which have no Mixpanel type,
///   before it calls (see ``MixpanelLimits``), so the cast below keeps every value.
/// - A group id is a `MixpanelType`; Tally's group ids are strings.
/// - People and group profile properties are set through objects (`people.set(properties:)`,
///   `getGroup(groupKey:groupID:).set(properties:)`), which the adapter flattens into
///   ``peopleSet(properties:)`` and ``groupSet(groupKey:groupID:properties:)``.
///
/// ```swift
/// import Mixpanel
/// import Tally
///
/// extension MixpanelInstance: @retroactive MixpanelAdapter {
///     public func track(event: String?, properties: [String: Any]?) {
///         track(event: event, properties: properties.map(Self.mixpanelProperties))
///     }
///     public func setGroup(groupKey: String, groupID: String) {
///         setGroup(groupKey: groupKey, groupID: groupID as any MixpanelType)
///     }
///     public func peopleSet(properties: [String: Any]) {
///         people.set(properties: Self.mixpanelProperties(properties))
///     }
///     public func groupSet(groupKey: String, groupID: String, properties: [String: Any]) {
///         getGroup(groupKey: groupKey, groupID: groupID).set(properties: Self.mixpanelProperties(properties))
///     }
///     static func mixpanelProperties(_ properties: [String: Any]) -> Properties {
///         properties.compactMapValues { $0 as? any MixpanelType }
///     }
/// }
///
/// let mixpanel = MixpanelDestination(adapter: Mixpanel.mainInstance())
/// ```
///
/// Each forward passes a value of Mixpanel's exact type (`Properties?`, `MixpanelType`), so the call
/// resolves to the SDK's method, not back to the forward.
///
/// The protocol is not `Sendable`, like the SDK; ``MixpanelDestination`` calls it from one thread at a
/// time.
public protocol MixpanelAdapter {
    /// The current user's distinct id as Mixpanel holds it: Mixpanel's `distinctId`. The destination
    /// aliases a new id to it.
    var distinctId: String { get }

    /// Tracks an event: Mixpanel's `track(event:properties:)`.
    ///
    /// - Parameters:
    ///   - event: the event name; the destination always passes one.
    ///   - properties: JSON-like Foundation values, or nil when the event has none.
    func track(event: String?, properties: [String: Any]?)

    /// Sets the distinct id of the current user: Mixpanel's `identify(distinctId:usePeople:completion:)`.
    /// The destination passes `usePeople: true` and no completion, Mixpanel's defaults.
    func identify(distinctId: String, usePeople: Bool, completion: (() -> Void)?)

    /// Maps a new id to the current distinct id: Mixpanel's
    /// `createAlias(_:distinctId:usePeople:andIdentify:completion:)`. The destination passes Mixpanel's own
    /// current ``distinctId`` and Mixpanel's defaults: `usePeople: true`, `andIdentify: true`, no completion.
    func createAlias(_ alias: String, distinctId: String, usePeople: Bool, andIdentify: Bool, completion: (() -> Void)?)

    /// Puts the user in a group: Mixpanel's `setGroup(groupKey:groupID:)`, with a string group id.
    func setGroup(groupKey: String, groupID: String)

    /// Sets properties on the user's profile: Mixpanel's `people.set(properties:)`.
    func peopleSet(properties: [String: Any])

    /// Sets properties on a group's profile: Mixpanel's `getGroup(groupKey:groupID:).set(properties:)`.
    func groupSet(groupKey: String, groupID: String, properties: [String: Any])

    /// Forgets the user: Mixpanel's `reset(completion:)`, which clears the distinct id and super
    /// properties and starts a new anonymous distinct id. The destination passes no completion,
    /// Mixpanel's default.
    func reset(completion: (() -> Void)?)
}
