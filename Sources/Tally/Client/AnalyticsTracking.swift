/// The small protocol app code depends on to track events.
///
/// Give view models and services an `any AnalyticsTracking`: the app passes its ``AnalyticsClient`` client,
/// tests pass an `AnalyticsSpy` from TallyTesting. App code never sees a vendor SDK.
///
/// ```swift
/// struct MenuItemDetailModel {
///     let item: MenuItem
///     let analytics: any AnalyticsTracking
///     func onAppear() { analytics.track(.menuItemDetailVisited(itemName: item.name)) }
/// }
/// ```
///
/// Conformers implement ``track(_:)-(Event)`` and ``reset()``; `screen`, `identify`, `group` and `alias`
/// are conveniences that build an ``Event`` of the matching kind and call ``track(_:)-(Event)``.
public protocol AnalyticsTracking: Sendable {
    /// Tracks an event of any kind. Returns at once; delivery happens later, elsewhere.
    ///
    /// The event is `consuming`: a conformer may keep it without copying, as the client does. Callers
    /// notice nothing; conformers may declare the parameter plainly.
    func track(_ event: consuming Event)

    /// Forgets the user: clears the user id and traits and starts a new anonymous id. Call it on sign-out.
    func reset()
}

extension AnalyticsTracking {
    /// Tracks a track event by name.
    ///
    /// ```swift
    /// analytics.track("menu_item_ordered", ["item_name": "Pizza"])
    /// ```
    public func track(_ name: String, _ properties: [String: PropertyValue] = [:]) {
        track(Event(kind: .track, name: name, properties: properties))
    }

    /// Tracks that the user saw a screen.
    public func screen(_ name: String, _ properties: [String: PropertyValue] = [:]) {
        track(Event(kind: .screen, name: name, properties: properties))
    }

    /// Says who the user is. Later events carry `userId` until ``reset()``.
    public func identify(userId: String, traits: [String: PropertyValue] = [:]) {
        track(.identify(userId: userId, traits: traits))
    }

    /// Says the user belongs to a group, such as a company account.
    public func group(_ groupId: String, traits: [String: PropertyValue] = [:]) {
        track(.group(groupId, traits: traits))
    }

    /// Gives the current user a new id; later events carry `newId`.
    public func alias(_ newId: String) {
        track(.alias(newId))
    }
}
