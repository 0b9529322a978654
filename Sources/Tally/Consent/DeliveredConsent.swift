/// What a client knew of the user's consent for an event's purpose when it handed the event to its
/// destinations: the user's answer (``ConsentStatus``), or ``notRequired`` when the client does not gate the
/// purpose at all. Each delivered envelope carries it as ``Envelope/consent``, and recordings keep it
/// (`"consent"`), so a test or `tally validate` can tell "the user agreed" from "nobody asked".
///
/// A client that uses consent (a purpose in ``AnalyticsClient/Configuration/consentRequired``, or an
/// answer given with ``AnalyticsClient/setConsent(_:for:)`` or its store) gives every delivered envelope a
/// value: ``granted`` for a purpose the user agreed to (events held until then included), ``notRequired``
/// for one it does not gate and the user never answered for. A client that uses no consent at all gives
/// none (nil), and does no work for it.
///
/// ```swift
/// let ungated = memory.envelopes.filter { $0.consent == .notRequired }
/// ```
///
/// A client itself never delivers ``denied`` or ``notAsked``: those mean the event went out past the
/// client's gate, as through a wrapper that calls a destination directly or in a recording written by hand.
public enum DeliveredConsent: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The user agreed to the event's purpose.
    case granted
    /// The user refused the event's purpose.
    case denied
    /// The purpose needs consent and the user had not answered.
    case notAsked = "not_asked"
    /// The client does not gate the purpose (it is not in
    /// ``AnalyticsClient/Configuration/consentRequired``) and the user never answered for it.
    case notRequired = "not_required"

    /// The delivery state for the user's answer `status`.
    public init(_ status: ConsentStatus) {
        switch status {
        case .granted: self = .granted
        case .denied: self = .denied
        case .notAsked: self = .notAsked
        }
    }

    /// The user's answer this state stands for, or nil for ``notRequired`` (the user was not asked).
    public var status: ConsentStatus? {
        switch self {
        case .granted: .granted
        case .denied: .denied
        case .notAsked: .notAsked
        case .notRequired: nil
        }
    }

    public var description: String { rawValue }
}
