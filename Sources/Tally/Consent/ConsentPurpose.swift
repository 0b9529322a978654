/// Why an event is collected, as the user is asked to consent to it: analytics, advertising, or none at
/// all for what is strictly necessary.
///
/// Every ``Event`` names the purpose it needs (``Event/purpose``, ``analytics`` unless said otherwise). A
/// client gates the purposes listed in ``AnalyticsClient/Configuration/consentRequired`` on the user's
/// answer (``ConsentStatus``), and each destination receives only the purposes
/// ``AnalyticsClient/Configuration/purposesByDestination`` allows it. A tracking plan names each event's
/// purpose the same way (`purpose: advertising`).
///
/// ```swift
/// analytics.track(Event("ad_clicked", ["campaign": "spring"]).needing(.advertising))
/// ```
///
/// Purposes are open: `ConsentPurpose("personalization")` is one too. Their names are compared as written.
public struct ConsentPurpose: RawRepresentable, Sendable, Hashable, Codable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The purpose's name, such as `analytics`.
    public var rawValue: String

    /// A purpose named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A purpose named `name`.
    public init(_ name: String) { self.rawValue = name }

    /// A purpose named by a string literal: `"personalization"`.
    public init(stringLiteral name: String) { self.rawValue = name }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Measuring how the app is used: product analytics. Every event's purpose unless it names another.
    public static let analytics = ConsentPurpose(rawValue: "analytics")
    /// Advertising and attribution: what App Tracking Transparency asks about on iOS.
    public static let advertising = ConsentPurpose(rawValue: "advertising")
    /// Strictly necessary for the service the user asked for (fraud checks, security, billing): needs no
    /// consent, so no client should list it in ``AnalyticsClient/Configuration/consentRequired``.
    public static let necessary = ConsentPurpose(rawValue: "necessary")
}

/// The user's answer for one ``ConsentPurpose``.
public enum ConsentStatus: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The user agreed: events of the purpose flow.
    case granted
    /// The user refused: events of the purpose are dropped (``DropReason/consentDenied``).
    case denied
    /// The user has not answered yet: events of the purpose wait in the client's bounded consent hold, and
    /// reach the destinations if the user agrees.
    case notAsked = "not_asked"

    public var description: String { rawValue }

    /// The status an App Tracking Transparency answer stands for, given the raw value of
    /// `ATTrackingManager.AuthorizationStatus` (Tally does not import AppTrackingTransparency):
    /// 0 not determined -> ``notAsked``, 3 authorized -> ``granted``, and restricted (1), denied (2) or any
    /// other value -> ``denied``.
    ///
    /// ```swift
    /// let answer = await ATTrackingManager.requestTrackingAuthorization()
    /// analytics.setConsent(ConsentStatus(trackingAuthorizationStatus: answer.rawValue), for: .advertising)
    /// ```
    public init(trackingAuthorizationStatus rawValue: UInt) {
        switch rawValue {
        case 0: self = .notAsked
        case 3: self = .granted
        default: self = .denied
        }
    }
}
