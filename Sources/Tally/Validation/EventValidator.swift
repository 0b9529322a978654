/// Checks events against a contract, such as a tracking plan.
///
/// TallyPlan's `TrackingPlan` and `PlanValidator` adopt it, and TallyTesting's `expectValid(against:)`
/// takes any validator, so a test target that links TallyTesting builds nothing of TallyPlan unless it
/// imports it:
///
/// ```swift
/// import TallyPlan
/// import TallyTesting
///
/// let plan = try TrackingPlan(contentsOf: planURL)
/// model.checkout()
/// spy.expectValid(against: plan)
/// ```
///
/// A validator of your own (a schema of your company's, say) works the same way.
public protocol EventValidator: Sendable {
    /// Checks `events`.
    ///
    /// - Parameter events: the events, in the order they were recorded.
    /// - Returns: for each event that breaks the contract, its index in `events` and one line per
    ///   violation, such as `type_mismatch at /properties/total: expected a number, got a string`. Valid
    ///   events have no entry.
    func violationReport(for events: [Event]) -> [Int: [String]]

    /// Checks `events` recorded at `stage`, each with the consent its envelope was delivered with: as the
    /// app tracked them (a spy's, ``Record/Stage/tracked``), before any client's rules ran, or as a client
    /// delivered them.
    ///
    /// A validator whose contract includes rules the client applies (a tracking plan's personal-data rules)
    /// applies them to tracked events before judging, so that what a spy rightly saw in the clear is not a
    /// violation; one whose contract includes consent (a plan's `consent.required`) reads `consents`. By
    /// default it checks them as ``violationReport(for:)`` does.
    ///
    /// - Parameters:
    ///   - events: the events, in the order they were recorded.
    ///   - consents: each event's ``Envelope/consent``, by index; shorter than `events` when the rest are
    ///     nil.
    ///   - stage: where in the events' flow they were recorded.
    /// - Returns: as ``violationReport(for:)``.
    func violationReport(
        for events: [Event], consents: [DeliveredConsent?], recordedAt stage: Record.Stage
    ) -> [Int: [String]]
}

extension EventValidator {
    public func violationReport(
        for events: [Event], consents: [DeliveredConsent?], recordedAt stage: Record.Stage
    ) -> [Int: [String]] {
        violationReport(for: events)
    }
}
