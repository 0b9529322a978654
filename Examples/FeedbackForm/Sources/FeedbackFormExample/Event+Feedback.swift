import Tally

/// The feedback form's events, one static factory each, as in `Examples/tracking-plan.yaml`.
extension Event {
    /// The SDK delivered a feedback form to show.
    ///
    /// - Parameter formID: the id the form was loaded with.
    public static func feedbackFormLoaded(formID: String) -> Event {
        Event("feedback_form_loaded", ["form_id": .string(formID)])
    }

    /// A feedback form could not be loaded.
    ///
    /// - Parameters:
    ///   - formID: the id the form was requested with.
    ///   - reason: why it failed.
    public static func feedbackFormFailed(formID: String, reason: FeedbackFormModel.FailureReason) -> Event {
        Event("feedback_form_failed", ["form_id": .string(formID), "reason": .string(reason.rawValue)])
    }
}
