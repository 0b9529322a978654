import NotesGoogleSDK
import Tally

// The article's last step: the SDK is an adapter. `GoogleAnalyticsAdapter` (GoogleAnalyticsAdapter.swift,
// this example's, as in the article) mirrors the SDK's
// `trackEvent(with:properties:)` one-to-one, so the conformance needs no code.
extension GoogleSDK: GoogleAnalyticsAdapter {}
