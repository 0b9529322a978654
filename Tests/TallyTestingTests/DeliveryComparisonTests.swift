import Foundation
import Tally
import Testing

@testable import TallyTesting

/// What the app tracked against what arrived through a vendor SDK: by message id, else by content; missing,
/// duplicated and altered events are listed, and `expectDelivered` fails at the caller's line.
struct DeliveryComparisonTests {
    static func tracked(_ name: String, _ properties: [String: PropertyValue] = [:], sequence: UInt64) -> Envelope {
        Envelope(
            event: Event(name, properties), messageId: MessageID(prefix: 0xABCD, sequence: sequence),
            timestamp: Date(timeIntervalSince1970: 0), userId: "u1", anonymousId: "a1")
    }

    static func arrival(
        _ name: String, _ properties: [String: PropertyValue] = [:], id: String? = nil, user: String? = "u1"
    ) -> DeliveryComparison.Arrival {
        DeliveryComparison.Arrival(event: Event(name, properties), messageId: id, userId: user, vendor: "posthog")
    }

    static let app = [
        tracked("Opened", ["step": 1], sequence: 1),
        tracked("Added To Cart", ["total": 12.5, "items": 2], sequence: 2),
        tracked("Signed Out", sequence: 3),
    ]

    @Test func everythingArrivedByIdOrByContent() {
        let arrived = [
            Self.arrival("Opened", ["step": 1, "$lib": "posthog-ios"], id: Self.app[0].messageId.description),
            // No id kept: matched by content; 2 arrives as 2.0, the SDK adds $os.
            Self.arrival("Added To Cart", ["total": 12.5, "items": 2.0, "$os": "iOS"], id: "sdk-1"),
            Self.arrival("Signed Out", id: "sdk-2"),
            Self.arrival("$identify", id: "sdk-3"),
        ]
        let comparison = DeliveryComparison(tracked: Self.app, arrived: arrived)
        #expect(comparison.isComplete)
        #expect(comparison.matched == 3)
        #expect(comparison.matchedById == 1)
        #expect(comparison.unexpected.map(\.event.name) == ["$identify"])
        #expect(
            comparison.description
                == "3 delivered intact (1 by message id), 0 missing, 0 duplicated, 0 altered, 1 unexpected")
    }

    @Test func aDroppedEventIsMissing() {
        let arrived = [
            Self.arrival("Opened", ["step": 1]), Self.arrival("Added To Cart", ["total": 12.5, "items": 2]),
        ]
        let comparison = DeliveryComparison(tracked: Self.app, arrived: arrived)
        #expect(!comparison.isComplete)
        #expect(comparison.missing.map(\.event.name) == ["Signed Out"])
        #expect(comparison.description.contains(#"missing: track "Signed Out" ("#))
    }

    /// Issue 23: identify, group and alias events are named by what they carry, as
    /// ``Envelope/reportName`` names them, never by their empty name.
    @Test func missingIdentifyGroupAndAliasAreNamedByWhatTheyCarry() {
        func tracked(_ event: Event, sequence: UInt64) -> Envelope {
            Envelope(
                event: event, messageId: MessageID(prefix: 0xABCD, sequence: sequence),
                timestamp: Date(timeIntervalSince1970: 0), anonymousId: "anon-1")
        }
        let comparison = DeliveryComparison(
            tracked: [
                tracked(.identify(userId: "user-42"), sequence: 1), tracked(.group("acme"), sequence: 2),
                tracked(.alias("user-43"), sequence: 3),
            ],
            arrived: [])
        let lines = comparison.description.split(separator: "\n").dropFirst().map { $0.prefix { $0 != "(" } }
        #expect(lines == ["missing: identify user-42 ", "missing: group acme ", "missing: alias user-43 <- anon-1 "])
    }

    @Test func anEventSentTwiceIsDuplicated() {
        let arrived = [
            Self.arrival("Opened", ["step": 1]), Self.arrival("Added To Cart", ["total": 12.5, "items": 2]),
            Self.arrival("Signed Out"), Self.arrival("Opened", ["step": 1]),
        ]
        let comparison = DeliveryComparison(tracked: Self.app, arrived: arrived)
        #expect(comparison.duplicated.map(\.tracked.event.name) == ["Opened"])
        #expect(comparison.duplicated.first?.count == 2)
        #expect(comparison.description.contains(#"duplicated: track "Opened" arrived 2 times"#))
    }

    @Test func aChangedPropertyOrUserIsAltered() {
        let arrived = [
            Self.arrival("Opened", ["step": 1]), Self.arrival("Added To Cart", ["total": 12, "items": 2]),
            Self.arrival("Signed Out", user: "someone-else"),
        ]
        let comparison = DeliveryComparison(tracked: Self.app, arrived: arrived)
        #expect(comparison.altered.map(\.tracked.event.name) == ["Added To Cart", "Signed Out"])
        #expect(comparison.altered.first?.differences == ["properties.total: 12.5 became 12"])
        #expect(comparison.altered.last?.differences == ["user: u1 became someone-else"])
        #expect(comparison.missing.isEmpty)
    }

    @Test func theReadAPIAnswerIsReadWithEachEventsVendor() throws {
        let answer = """
            {"events":[{"id":1,"source":"amplitude","type":"identify","kind":"identify","name":"",
              "properties":{"plan":"pro"},"user_id":"u1","message_id":"i-1","group_id":null}],"more":false}
            """
        let (arrivals, more) = try DeliveryComparison.Arrival.arrivals(readAPIAnswer: Array(answer.utf8))
        #expect(!more)
        #expect(
            arrivals == [
                DeliveryComparison.Arrival(
                    event: Event(kind: .identify, name: "", properties: ["plan": "pro"], userId: "u1"),
                    messageId: "i-1", userId: "u1", vendor: "amplitude")
            ])
    }

    @Test func expectDeliveredFailsAtTheCallersLine() {
        let arrived = [
            Self.arrival("Opened", ["step": 1]), Self.arrival("Added To Cart", ["total": 12.5, "items": 2]),
        ]
        expectOneIssue(
            containing: ["Not everything tracked was delivered", #"missing: track "Signed Out""#],
            atLine: #line + 1
        ) { expectDelivered(Self.app, arrived: arrived) }
        // And passes when everything arrived.
        let comparison = expectDelivered(Self.app, arrived: arrived + [Self.arrival("Signed Out")])
        #expect(comparison.isComplete)
    }
}
