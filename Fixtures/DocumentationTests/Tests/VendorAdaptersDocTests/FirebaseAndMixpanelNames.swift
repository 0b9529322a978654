// "Names a vendor SDK shares": Firebase Analytics (12) and Mixpanel (6.5.1) share no type name with Tally,
// so a file that imports all three names Tally's types unqualified. (Mixpanel's module and its class are
// both `Mixpanel`, so `Mixpanel.` names the class; nothing of it needs qualifying.)

import FirebaseAnalytics
import Mixpanel
import Tally

func makeClient() -> AnalyticsClient {
    let analytics = AnalyticsClient(destinations: [
        FirebaseDestination(sdk: Analytics.self), MixpanelDestination(adapter: Mixpanel.mainInstance()),
    ])
    let _: (Identity, Statistics, DropReason) = (analytics.identity, analytics.statistics, .rejected)
    return analytics
}
