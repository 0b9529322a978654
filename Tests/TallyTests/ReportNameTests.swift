import Foundation
import Tally
import TallyTesting
import Testing

/// Every event has a name in reports: track and screen events their own, the others their kind and id.
struct ReportNameTests {
    @Test(arguments: [
        (Event.track("menu_item_ordered", ["item_name": "Pizza"]), "menu_item_ordered"),
        (Event.screen("Home"), "Home"),
        (Event.identify(userId: "user-42", traits: ["plan": "pro"]), "identify user-42"),
        (Event.group("acme", traits: ["seats": 3]), "group acme"),
        (Event.alias("user-43"), "alias user-43"),
        (Event(kind: .identify), "identify"),
        (Event(kind: .group), "group"),
        (Event(kind: .track), "track"),
    ])
    func eachKindIsNamedByWhatItCarries(event: Event, expected: String) {
        #expect(event.reportName == expected)
    }

    @Test func descriptionsNameEventsTheSameWay() {
        #expect(
            Event.identify(userId: "user-42", traits: ["plan": "pro"]).description
                == #"identify user-42 {"plan":"pro"}"#)
        #expect(Event.group("acme").description == "group acme")
        #expect(Event.alias("user-43").description == "alias user-43")
        #expect(Event.track("menu_item_ordered", ["n": 1]).description == #"track menu_item_ordered {"n":1}"#)
        #expect(Event.screen("Home").description == "screen Home")
    }

    @Test func anEnvelopeNamesTheIdAnAliasReplaces() {
        func envelope(_ event: Event, userId: String?) -> Envelope {
            Envelope(
                event: event, messageId: MessageID(prefix: 1, sequence: 1), timestamp: Date(timeIntervalSince1970: 0),
                userId: userId, anonymousId: "anon-1")
        }
        #expect(envelope(.alias("user-43"), userId: nil).reportName == "alias user-43 <- anon-1")
        #expect(envelope(.alias("user-43"), userId: "user-42").reportName == "alias user-43 <- user-42")
        #expect(envelope(.identify(userId: "user-42"), userId: "user-42").reportName == "identify user-42")
        #expect(envelope(.track("a"), userId: nil).reportName == "a")
    }

    /// A destination that rejects every event with a problem naming none, as a custom destination might.
    private struct RejectingDestination: Destination {
        let name = "rejecting"
        func receive(_ envelope: Envelope, context: DestinationContext) throws {
            throw Problem(.vendorLimit, "Rejected", outcome: .dropped)
        }
    }

    @Test func problemsFromTheClientAndDestinationsNameIdentifyGroupAndAlias() async {
        let reported = LockedBox<[Problem]>([])
        let analytics = AnalyticsClient(
            destinations: [RejectingDestination()],
            configuration: .init(onProblem: { problem in reported.mutate { $0.append(problem) } }))
        analytics.identify(userId: "user-42", traits: ["plan": "pro"])
        analytics.group("acme")
        analytics.alias("user-43")
        analytics.identify(userId: "bad\u{0}id")
        analytics.identify(userId: String(repeating: "x", count: 300))
        await analytics.flush()
        // The client drops the last two itself, maybe before the destination sees the first three.
        #expect(
            Set(reported.value.compactMap(\.eventName)) == [
                "identify user-42", "group acme", "alias user-43 <- user-42", #"identify bad\u{0}id"#,
                "identify " + String(repeating: "x", count: 64) + "…",
            ])
        #expect(reported.value.count == 5)
    }
}
