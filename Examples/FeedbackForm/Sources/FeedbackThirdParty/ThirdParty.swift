import Dispatch
import Foundation

/// The vendor SDK of "Wrapping a difficult dependency", with all its warts: a static delegate, a static
/// load call, callbacks that carry no request id, answers on another thread, and an error type that only
/// the SDK can create.
///
/// ```swift
/// public class ThirdParty {
///     public static var delegate: ThirdPartyDelegate?
///     public static func loadFeedbackForm(_ id: String)
/// }
/// ```
///
/// This module plays the vendor's black box; the app wraps it in `FeedbackService`. The simulated SDK
/// knows the forms in ``catalog``. For any other id it answers with a ``ThirdPartyError``, except for
/// ``silentFormID``, which it never answers at all, as real SDKs sometimes don't.
public class ThirdParty {
    /// Who gets the answers. The SDK reads it when it answers, on whatever thread it answers on, and
    /// holds it strongly.
    public static var delegate: (any ThirdPartyDelegate)? {
        get { storage.withLock { $0.delegate } }
        set { storage.withLock { $0.delegate = newValue } }
    }

    /// Starts loading the form `id`. The answer comes later, on another thread, through ``delegate``:
    /// ``ThirdPartyDelegate/formDidload(_:)`` or ``ThirdPartyDelegate/formDidFailLoading(error:)``, without
    /// saying which load it answers.
    public static func loadFeedbackForm(_ id: String) {
        guard id != silentFormID else { return }
        let form = catalog.first { $0.id == id }
        let schedule = storage.withLock { $0.scheduleCallback }
        schedule {
            let delegate = ThirdParty.delegate
            if let form {
                delegate?.formDidload(form)
            } else {
                delegate?.formDidFailLoading(error: ThirdPartyError(description: "No feedback form with id '\(id)'"))
            }
        }
    }

    /// The forms this simulated SDK can load.
    public static let catalog: [FeedbackForm] = [
        FeedbackForm(
            id: "nps", title: "How likely are you to recommend us?",
            questions: ["Score from 0 to 10", "What is the main reason for your score?"]),
        FeedbackForm(
            id: "onboarding", title: "How was getting started?",
            questions: ["Was anything unclear?", "What did you expect to find?"]),
    ]

    /// The id the simulated SDK never answers.
    public static let silentFormID = "silent"

    /// How the simulated SDK delivers its answers: by default on a global dispatch queue, so they arrive
    /// on another thread. Not part of the vendor's API: a test that runs the real static SDK replaces it
    /// to hold an answer back (and restores it), instead of sleeping until the answer has come.
    public static var scheduleCallback: @Sendable (_ answer: @escaping @Sendable () -> Void) -> Void {
        get { storage.withLock { $0.scheduleCallback } }
        set { storage.withLock { $0.scheduleCallback = newValue } }
    }

    /// The default ``scheduleCallback``.
    public static let answerOnAnotherThread: @Sendable (_ answer: @escaping @Sendable () -> Void) -> Void = {
        DispatchQueue.global().async(execute: $0)
    }

    private static let storage = Storage()

    private final class Storage: @unchecked Sendable {
        struct State {
            var delegate: (any ThirdPartyDelegate)?
            var scheduleCallback: @Sendable (_ answer: @escaping @Sendable () -> Void) -> Void =
                ThirdParty.answerOnAnotherThread
        }

        private let lock = NSLock()
        private var state = State()

        func withLock<T>(_ body: (inout State) -> T) -> T {
            lock.withLock { body(&state) }
        }
    }
}

/// The SDK's delegate: the only way it answers. The callbacks do not say which load they answer.
public protocol ThirdPartyDelegate: AnyObject {
    /// A form loaded.
    func formDidload(_ form: FeedbackForm)
    /// A form failed to load.
    func formDidFailLoading(error: ThirdPartyError)
}

/// The SDK's error. Its initializer is not public: only the SDK can make one, so neither the app nor its
/// tests can.
public struct ThirdPartyError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    init(description: String) { self.description = description }
}

/// A feedback form, ready to show. (The article's SDK hands over a `UIViewController`; UIKit doesn't
/// exist here, so a form is a plain value.)
public struct FeedbackForm: Sendable, Hashable {
    /// The id it was loaded with.
    public let id: String
    /// The form's title.
    public let title: String
    /// The questions, in order.
    public let questions: [String]

    /// Creates a form.
    public init(id: String, title: String, questions: [String]) {
        self.id = id
        self.title = title
        self.questions = questions
    }
}
