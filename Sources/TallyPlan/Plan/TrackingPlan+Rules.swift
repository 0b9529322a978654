import Tally

extension TrackingPlan {
    /// The plan's runtime rules, as an app's client follows them: what `tally gen` writes into the app as
    /// `PlannedEvents.rules`, so the app reads no plan file.
    ///
    /// ```swift
    /// // In a test: the generated rules are the plan's.
    /// #expect(try TrackingPlan(contentsOf: planURL).rules == PlannedEvents.rules)
    /// ```
    ///
    /// Events are keyed as `PlanRules.purposes` keys them: track and screen events by name, identify, group
    /// and alias events by kind; when two planned events share a key, the first one's purpose is kept, as
    /// validation keeps the first.
    public var rules: PlanRules {
        var purposes: [String: ConsentPurpose] = [:]
        for event in events {
            let key = event.kind.matchesByName ? event.name : event.kind.rawValue
            if purposes[key] == nil { purposes[key] = event.purpose }
        }
        return PlanRules(
            consentRequired: consentRequired, purposes: purposes, personalProperties: personalProperties,
            purposesByDestination: destinations, domainsByDestination: destinationDomains)
    }
}
