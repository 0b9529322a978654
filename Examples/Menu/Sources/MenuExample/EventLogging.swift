import Tally

/// The article's `EventLogging`: the app's own abstraction over the analytics library, which the view
/// model logs through and tests replace with a spy.
///
/// Tally's `AnalyticsTracking` is exactly that protocol, typed: the article's
/// `log(name: "menu_item_ordered", properties: ["item_name": item.name])` is
/// `track(.menuItemOrdered(itemName: item.name))`, with the event declared once (`Event+Menu.swift`) and
/// properties that compare without `as? String` casts. So the example names it once and uses it:
///
/// | the article | here |
/// |---|---|
/// | `EventLogging` | `EventLogging`, which is `AnalyticsTracking` |
/// | `EventLoggingSpy.loggedEvents` | `AnalyticsSpy` and its expectations |
/// | `extension HippoAnalyticsClient: EventLogging` | an `AnalyticsClient` whose destination is ``EventLogger`` |
public typealias EventLogging = AnalyticsTracking
