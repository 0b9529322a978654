import Tally
import TallyTesting
import Testing

/// Expectations about consent purposes: what reached a destination, by purpose, at the caller's line.
@Suite struct PurposeExpectationTests {
    @Test func nothingOfAPurposeReachedTheDestinationBeforeConsent() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(
            destinations: [memory], configuration: .init(consentRequired: [.advertising]))
        analytics.track(Event("ad_clicked", ["campaign": "spring"]).needing(.advertising))
        analytics.track("opened")
        await analytics.flush()
        #expect(memory.expectNotTracked(.purpose(.advertising)))

        analytics.setConsent(.granted, for: .advertising)
        await analytics.flush()
        expectOneIssue(
            containing: [
                "Expected any event for advertising not to have been tracked, but 1 matching event was.",
                #"track ad_clicked {"campaign":"spring"} (for advertising)"#,
            ], atLine: #line + 2
        ) {
            memory.expectNotTracked(.purpose(.advertising))
        }
    }

    @Test func anEventExpectedForOnePurposeDoesNotMatchAnother() {
        let spy = AnalyticsSpy()
        spy.track(Event("ad_clicked").needing(.advertising))
        #expect(!EventMatcher.event(Event("ad_clicked")).matches(Event("ad_clicked").needing(.advertising)))
        expectOneIssue(containing: ["Expected track ad_clicked to have been tracked"], atLine: #line + 1) {
            spy.expectTracked(Event("ad_clicked"))
        }
        #expect(spy.expectTracked(Event("ad_clicked").needing(.advertising)))
    }
}
