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
}
