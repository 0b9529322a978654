/// The calls ``AmplitudeDestination`` makes, mirroring Amplitude's Swift SDK (`Amplitude-Swift`).
///
/// Amplitude's methods take an `options: EventOptions?` argument and return the `Amplitude` instance for
/// chaining. Tally cannot name either type, so the protocol leaves them to two associated types that
/// Swift infers from the conformance, which is therefore empty:
///
/// ```swift
/// import AmplitudeSwift
/// import Tally
///
/// extension Amplitude: @retroactive AmplitudeAdapter {}
///
/// let amplitude = AmplitudeDestination(adapter: Amplitude(configuration: Configuration(apiKey: key)))
/// ```
///
/// AmplitudeSwift re-exports AmplitudeCore, whose `AnalyticsClient` and `Identity` share Tally's names: in
/// that file write `Tally.AnalyticsClient` (see "Names a vendor SDK shares" in the Vendor adapters article).
///
/// The destination always passes `options: nil` and ignores what the calls return. A spy, which has no
/// options type, takes `Never?` (only nil fits) and returns nothing:
///
/// ```swift
/// final class AmplitudeSpy: AmplitudeAdapter {
///     private(set) var eventTypes: [String] = []
///     func track(eventType: String, eventProperties: [String: Any]?, options: Never?) {
///         eventTypes.append(eventType)
///     }
///     func identify(userProperties: [String: Any]?, options: Never?) {}
///     func setUserId(userId: String?) {}
///     func setGroup(groupType: String, groupName: String, options: Never?) {}
///     func groupIdentify(groupType: String, groupName: String, groupProperties: [String: Any]?, options: Never?) {}
///     func reset() {}
/// }
/// ```
///
/// The protocol is not `Sendable`, like the SDK; ``AmplitudeDestination`` calls it from one thread at a
/// time.
public protocol AmplitudeAdapter {
    /// The SDK's `EventOptions`, inferred from the conformance. The destination always passes nil.
    associatedtype EventOptions
    /// What the SDK's calls return: the `Amplitude` instance, for chaining. The destination ignores it.
    associatedtype Chained

    /// Tracks an event: Amplitude's `track(eventType:eventProperties:options:)`.
    ///
    /// - Parameters:
    ///   - eventType: the event name.
    ///   - eventProperties: JSON-like Foundation values, or nil when the event has none.
    ///   - options: always nil.
    func track(eventType: String, eventProperties: [String: Any]?, options: EventOptions?) -> Chained

    /// Sets user properties: Amplitude's `identify(userProperties:options:)`.
    func identify(userProperties: [String: Any]?, options: EventOptions?) -> Chained

    /// Sets or clears the user id: Amplitude's `setUserId(userId:)`.
    func setUserId(userId: String?) -> Chained

    /// Puts the user in a group: Amplitude's `setGroup(groupType:groupName:options:)`.
    func setGroup(groupType: String, groupName: String, options: EventOptions?) -> Chained

    /// Sets a group's properties: Amplitude's `groupIdentify(groupType:groupName:groupProperties:options:)`.
    func groupIdentify(
        groupType: String, groupName: String, groupProperties: [String: Any]?, options: EventOptions?
    ) -> Chained

    /// Forgets the user: Amplitude's `reset()`, which clears the user id and makes a new device id.
    func reset() -> Chained
}

/// One call the destination makes, so that it can call an `any AmplitudeAdapter` whose associated
/// types it does not know.
enum AmplitudeCall {
    case track(eventType: String, eventProperties: [String: Any]?)
    case identify(userProperties: [String: Any])
    case setUserId(String)
    case setGroup(groupType: String, groupName: String)
    case groupIdentify(groupType: String, groupName: String, groupProperties: [String: Any])
    case reset
}

extension AmplitudeAdapter {
    /// Makes `call` with no options, ignoring what it returns.
    func perform(_ call: AmplitudeCall) {
        switch call {
        case .track(let eventType, let eventProperties):
            _ = track(eventType: eventType, eventProperties: eventProperties, options: nil)
        case .identify(let userProperties):
            _ = identify(userProperties: userProperties, options: nil)
        case .setUserId(let userId):
            _ = setUserId(userId: userId)
        case .setGroup(let groupType, let groupName):
            _ = setGroup(groupType: groupType, groupName: groupName, options: nil)
        case .groupIdentify(let groupType, let groupName, let groupProperties):
            _ = groupIdentify(
                groupType: groupType, groupName: groupName, groupProperties: groupProperties, options: nil)
        case .reset:
            _ = reset()
        }
    }
}
