import Foundation
import Tally
import TallyTesting
import Testing

/// Personal properties follow their rule before any destination sees them, and values that look personal
/// are found whatever their key.
@Suite struct PersonalDataTests {
    private static let marks = [
        PersonalProperty(event: "signed_up", key: "email", kind: .email, rule: .hash),
        PersonalProperty(event: "signed_up", key: "name", kind: .name, rule: .redact),
        PersonalProperty(key: "search_text", kind: .freeText, rule: .neverSend),
        PersonalProperty(event: "identify", key: "email", kind: .email, rule: .send),
    ]

    @Test func eachRuleIsAppliedBeforeAnyDestinationSeesTheEvent() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(
            processors: [.personalData(Self.marks, hash: { "hash(\($0))" })], destinations: [memory])
        analytics.track(
            Event("signed_up", ["email": "ada@example.com", "name": "Ada", "search_text": "pizza", "plan": "pro"]))
        analytics.track(Event("searched", ["search_text": "my phone is +44 20 7946 0958", "results": 3]))
        analytics.identify(userId: "u1", traits: ["email": "ada@example.com"])
        await analytics.flush()
        #expect(
            memory.events == [
                Event("signed_up", ["email": "hash(ada@example.com)", "name": "[redacted]", "plan": "pro"]),
                Event("searched", ["results": 3]),
                .identify(userId: "u1", traits: ["email": "ada@example.com"]),
            ])
        #expect(analytics.statistics.recentProblems.isEmpty)
    }

    @Test func withoutAHashFunctionAValueIsRedactedNeverSentInTheClear() throws {
        let processor = PersonalDataProcessor(Self.marks)
        let problems = ProblemCollector()
        let output = try #require(
            processor.process(envelope(Event("signed_up", ["email": "ada@example.com"])), reportingTo: problems.add))
        #expect(output.event.properties["email"] == "[redacted]")
        let problem = try #require(problems.problems.only)
        #expect(problem.code == .personalDataNotHashed)
        #expect(problem.message == "No hash function was given: email redacted instead of hashed")
        #expect(problem.outcome == .sanitized)
        #expect(problem.eventName == "signed_up")
    }

    @Test func aNonStringValueIsHashedAsItsJSON() throws {
        let processor = PersonalDataProcessor(
            [PersonalProperty(key: "location", kind: .preciseLocation, rule: .hash)], hash: { "h:\($0)" })
        let output = try #require(processor.process(envelope(Event("moved", ["location": [51.5, -0.12]]))))
        #expect(output.event.properties["location"] == "h:[51.5,-0.12]")
    }

    @Test func valuesThatLookPersonalAreFoundWhateverTheirKeyAndDepth() {
        let properties: [String: PropertyValue] = [
            "note": "write to ada.lovelace@example.co.uk please",
            "contact": ["phone": "+44 20 7946 0958", "city": "London"],
            "list": ["x", "bob@example.org"],
            "a/b": "c@d.io",
            "date": "2026-11-27", "price": "+5", "count": 3, "handle": "@ada",
        ]
        #expect(
            PersonalDataScan.findings(in: properties) == [
                .init(path: "/a~1b", kind: .email), .init(path: "/contact/phone", kind: .phone),
                .init(path: "/list/1", kind: .email), .init(path: "/note", kind: .email),
            ])
        #expect(PersonalDataScan.findings(in: properties, skipping: ["note", "contact", "list", "a/b"]).isEmpty)
    }

    @Test func theTestKitCatchesAnAddressInAPropertyNobodyMarked() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(
            processors: [.personalData(Self.marks, hash: { _ in "h" })], destinations: [memory])
        analytics.track(Event("signed_up", ["email": "ada@example.com"]))
        await analytics.flush()
        #expect(memory.expectNotTracked(.holdingPersonalData()))

        analytics.track(Event("feedback_sent", ["comment": "reach me at ada@example.com"]))
        await analytics.flush()
        withKnownIssue {
            memory.expectNotTracked(.holdingPersonalData())
        } matching: { issue in
            issue.description.contains("Expected any event holding personal data not to have been tracked")
                && issue.description.contains("feedback_sent")
        }
    }

}
