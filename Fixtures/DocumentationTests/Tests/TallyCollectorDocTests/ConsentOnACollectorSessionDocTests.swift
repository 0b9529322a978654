import Foundation
import Tally
import TallyCollector
import TallyPlan
import TallyTesting
import Testing

// "Testing with the collector", "Consent and the tracking plan": a Tally client that waited for the user's
// grant sends to the collector; the session read back proves consent and the plan.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
@Test func aCollectorSessionProvesConsent() async throws {
    let plan = try TrackingPlan(
        text: """
            version: 1
            consent: { required: [analytics, advertising] }
            events:
              - name: checkout_started
                description: The user opened the checkout.
                purpose: analytics
              - name: ad_clicked
                description: The user opened an ad.
                purpose: advertising
            """)
    let collector = try await Collector.start()
    let events = CollectorReader(url: collector.url)
    var configuration = AnalyticsClient.Configuration()
    configuration.consentRequired = plan.consentRequired
    let analytics = AnalyticsClient(
        destinations: [RecordingDestination.collector(collector.url, session: events.session)],
        configuration: configuration)
    analytics.track("checkout_started")  // held until the user answers
    analytics.setConsent(.granted, for: .analytics)
    await analytics.flush()

    await events.waitForEvent(.named("checkout_started"))
    events.expectNotTracked(.sentWithoutConsent(for: [.analytics, .advertising]))  // or plan.consentRequired
    events.expectValid(against: plan)
    await collector.stop()
}
