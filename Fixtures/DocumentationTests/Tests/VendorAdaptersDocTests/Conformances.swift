// Vendor adapters: the app's conformances of the vendors' SDKs, each as the article writes it.

import AmplitudeSwift
import FirebaseAnalytics
import Segment
import Tally

extension Segment.Analytics: @retroactive SegmentAdapter {}

extension FirebaseAnalytics.Analytics: @retroactive FirebaseAnalyticsStaticAPI {}
let firebase = FirebaseDestination(sdk: FirebaseAnalytics.Analytics.self)

extension Amplitude: @retroactive AmplitudeAdapter {}
