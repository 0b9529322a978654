// What README.md leaves implicit: Firebase's class conformed once, as "Vendor adapters" shows.

import FirebaseAnalytics
import Tally

extension FirebaseAnalytics.Analytics: @retroactive FirebaseAnalyticsStaticAPI {}
