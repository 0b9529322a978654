import NotesFirebaseSDK
import Tally

// Firebase's `Analytics` has exactly the class methods `FirebaseAnalyticsStaticAPI` requires, so the
// conformance needs no code: `FirebaseDestination(sdk: Analytics.self)` calls them.
extension Analytics: FirebaseAnalyticsStaticAPI {}
