import Tally

/// The partner map's events, one static factory each, as in `Examples/tracking-plan.yaml`.
extension Event {
    /// The user tapped a partner's marker: what marketing counts to show partners how many tourists
    /// checked their location out.
    ///
    /// - Parameter partnerID: the partner whose marker was tapped.
    public static func partnerMarkerTapped(partnerID: String) -> Event {
        Event("partner_marker_tapped", ["partner_id": .string(partnerID)])
    }
}
