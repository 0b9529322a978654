// Testing your analytics: "Adapter tests with a spy adapter" and "Pipeline tests with the real client".

import Tally
import TallyTesting
import Testing

@Test func eventsBecomeLogEventCalls() throws {
    let sdk = FirebaseSDKSpy()
    let destination = FirebaseDestination(adapter: sdk)
    try destination.receive(envelope(Event("note_created", ["words": 12])), context: context)
    sdk.calls.expectCalled("logEvent(_:parameters:)", with: "note_created", ["words": 12])
}

@Test(.exhaustive) func emailsNeverLeaveTheApp() async {
    let memory = InMemoryDestination()
    let analytics = AnalyticsClient(processors: [.redact(keys: ["email"])], destinations: [memory])
    analytics.identify(userId: "u1", traits: ["email": "ada@example.com"])
    await analytics.flush()
    memory.expectTracked(.identify(userId: "u1", traits: ["email": "[redacted]"]))
}

@Test(.exhaustive) func nothingIsTrackedAfterOptingOut() async {
    let memory = InMemoryDestination()
    let analytics = AnalyticsClient(destinations: [memory])
    analytics.optOut()
    analytics.track("login_tapped")
    analytics.optIn()
    analytics.track("sign_up_tapped")
    await analytics.flush()
    memory.expectEvents([Event("sign_up_tapped")])
}
