import FeedbackThirdParty
import Tally

/// The screen that opens a feedback form: it loads the form through the service and tracks the outcome.
///
/// It takes either form of the service, and an `AnalyticsTracking`:
///
/// ```swift
/// let model = FeedbackFormModel(service: ThirdPartyFeedbackService(), analytics: analytics)
/// switch await model.open("nps") {
/// case .shown(let form): present(form)                  // tracked feedback_form_loaded
/// case .failed(let reason, let message): show(message)  // tracked feedback_form_failed
/// case .ignoredWhileLoading, .cancelled: break          // tracked nothing
/// }
/// ```
public struct FeedbackFormModel: Sendable {
    /// Why a form could not be loaded, as tracked in `feedback_form_failed`'s `reason`.
    public enum FailureReason: String, Sendable, Hashable, CaseIterable {
        /// The SDK answered with an error (or something else went wrong in the load).
        case sdkError = "sdk_error"
        /// The SDK did not answer in time.
        case timedOut = "timed_out"
    }

    /// What ``open(_:)`` did.
    public enum Outcome: Sendable, Hashable {
        /// The form loaded; show it.
        case shown(FeedbackForm)
        /// The form could not be loaded; `message` says why, for the user.
        case failed(FailureReason, message: String)
        /// Another form was loading (a double tap): this one was not loaded. Nothing is tracked.
        case ignoredWhileLoading
        /// The calling task was cancelled (the user left). Nothing is tracked.
        case cancelled
    }

    private let load: @Sendable (String) async throws -> FeedbackForm
    private let analytics: any AnalyticsTracking

    /// Creates the model over the protocol form of the service.
    public init(service: any FeedbackService, analytics: any AnalyticsTracking) {
        self.init(client: FeedbackServiceClient(service), analytics: analytics)
    }

    /// Creates the model over the struct-of-closures form of the service.
    public init(client: FeedbackServiceClient, analytics: any AnalyticsTracking) {
        self.load = client.load
        self.analytics = analytics
    }

    /// Loads the form `id` and tracks whether it loaded.
    public func open(_ id: String) async -> Outcome {
        do {
            let form = try await load(id)
            analytics.track(.feedbackFormLoaded(formID: id))
            return .shown(form)
        } catch BridgeError.busy {
            return .ignoredWhileLoading
        } catch is CancellationError {
            return .cancelled
        } catch BridgeError.timedOut(let seconds) {
            analytics.track(.feedbackFormFailed(formID: id, reason: .timedOut))
            return .failed(.timedOut, message: "The form did not load within \(Self.duration(seconds)).")
        } catch {
            analytics.track(.feedbackFormFailed(formID: id, reason: .sdkError))
            return .failed(.sdkError, message: (error as? ThirdPartyError)?.description ?? "\(error)")
        }
    }

    private static func duration(_ seconds: Double) -> String {
        seconds >= 1 && seconds == seconds.rounded()
            ? "\(Int(seconds)) second\(seconds == 1 ? "" : "s")" : "\(Int((seconds * 1000).rounded())) ms"
    }
}

extension FeedbackFormModel.Outcome: CustomStringConvertible {
    /// One line, such as `shown "nps": How likely are you to recommend us?` or
    /// `failed (sdk_error): No feedback form with id 'survey'`.
    public var description: String {
        switch self {
        case .shown(let form): return "shown \"\(form.id)\": \(form.title)"
        case .failed(let reason, let message): return "failed (\(reason.rawValue)): \(message)"
        case .ignoredWhileLoading: return "ignored: another form is loading"
        case .cancelled: return "cancelled"
        }
    }
}
