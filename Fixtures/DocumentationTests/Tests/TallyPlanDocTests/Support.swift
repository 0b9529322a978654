// What TallyPlan.md leaves implicit: a Firebase spy adapter.

import Tally

final class FirebaseSpy: FirebaseAnalyticsAdapter {
    func logEvent(_ name: String, parameters: [String: Any]?) {}
    func setUserID(_ userID: String?) {}
    func setUserProperty(_ value: String?, forName name: String) {}
}
