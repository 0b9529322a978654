import Tally
import TallyTesting
import Testing

/// Every expectation, passing and failing; failures must be reported once, at the expectation's line,
/// with a useful message.
struct ExpectationTests {
    let spy = AnalyticsSpy()

    init() {
        spy.screen("Menu")
        spy.track("menu_item_ordered", ["item_name": "Pasta", "price": 9.5])
        spy.track("checkout_started")
    }

    @Test func trackedPassesForAnEqualEvent() {
        #expect(spy.expectTracked(Event("menu_item_ordered", ["item_name": "Pasta", "price": 9.5])))
        #expect(spy.expectTracked(.screen("Menu")))
    }

    @Test func trackedFailsWithTheRecordingAndADiffAgainstTheClosestEvent() {
        expectOneIssue(
            containing: [
                #"Expected track menu_item_ordered {"item_name":"Pizza","price":9.5} to have been tracked, but it was not."#,
                "Recorded (3):",
                "  [0] screen Menu",
                #"  [1] track menu_item_ordered {"item_name":"Pasta","price":9.5}"#,
                "Closest recorded event [1]: (-expected +recorded)",
                #"-     "item_name": "Pizza","#,
                #"+     "item_name": "Pasta","#,
            ], atLine: #line + 2
        ) {
            spy.expectTracked(Event("menu_item_ordered", ["item_name": "Pizza", "price": 9.5]))
        }
    }

    @Test func identifyGroupAndAliasArePrintedByWhatTheyCarry() {
        let spy = AnalyticsSpy()
        spy.identify(userId: "user-42", traits: ["plan": "pro"])
        spy.group("acme")
        spy.alias("user-43")
        expectOneIssue(
            containing: [
                #"Expected identify user-7 {"plan":"pro"} to have been tracked, but it was not."#,
                #"  [0] identify user-42 {"plan":"pro"}"#,
                "  [1] group acme",
                "  [2] alias user-43",
            ], atLine: #line + 2
        ) {
            spy.expectTracked(.identify(userId: "user-7", traits: ["plan": "pro"]))
        }
    }

    @Test func partialMatchesCompareOnlyTheNamedProperties() {
        #expect(spy.expectTracked(.named("menu_item_ordered", containing: ["item_name": "Pasta"])))
        expectOneIssue(
            containing: [
                #"Expected "menu_item_ordered" containing {"item_name":"Pizza"} to have been tracked"#,
                "compared on the expected properties",
                #"-     "item_name": "Pizza""#,
                #"+     "item_name": "Pasta""#,
            ], atLine: #line + 2
        ) {
            spy.expectTracked(.named("menu_item_ordered", containing: ["item_name": "Pizza"]))
        }
    }

    @Test func notTrackedPassesAndFails() {
        #expect(spy.expectNotTracked(.named("menu_item_removed")))
        expectOneIssue(
            containing: [
                #"Expected "checkout_started" not to have been tracked, but 1 matching event was."#,
                "[2] track checkout_started",
            ], atLine: #line + 2
        ) {
            spy.expectNotTracked(.named("checkout_started"))
        }
    }

    @Test func eventsInOrderPassesAndFailsWithADiff() {
        let expected: [Event] = [
            .screen("Menu"), Event("menu_item_ordered", ["item_name": "Pasta", "price": 9.5]),
            Event("checkout_started"),
        ]
        #expect(spy.expectEvents(expected))
        expectOneIssue(
            containing: [
                "Expected exactly 2 events in order, but the recording differs.", "Difference: (-expected +recorded)",
            ],
            atLine: #line + 2
        ) {
            spy.expectEvents([.screen("Menu"), Event("checkout_started")])
        }
    }

    @Test func eventsInAnyOrderPassesAndNamesWhatIsMissingAndUnexpected() {
        #expect(
            spy.expectEvents(unordered: [
                Event("checkout_started"), .screen("Menu"),
                Event("menu_item_ordered", ["item_name": "Pasta", "price": 9.5]),
            ]))
        expectOneIssue(
            containing: ["in any order", "Missing (1):\n  track payment_failed", "Unexpected (2):", "[0] screen Menu"],
            atLine: #line + 2
        ) {
            spy.expectEvents(unordered: [
                Event("payment_failed"), Event("menu_item_ordered", ["item_name": "Pasta", "price": 9.5]),
            ])
        }
    }

    @Test func countOfMatchesPassesAndFails() {
        #expect(spy.expectCount(3))
        #expect(spy.expectCount(1, of: .kind(.screen)))
        #expect(spy.expectCount(2, of: .kind(.track)))
        #expect(spy.expectCount(1, of: .containing(["price": 9.5])))
        expectOneIssue(
            containing: ["Expected 2 events matching any screen event, but 1 was recorded."], atLine: #line + 2
        ) {
            spy.expectCount(2, of: .kind(.screen))
        }
    }

    @Test func predicatesMatchAndDescribeThemselves() {
        #expect(spy.expectTracked(.where("a priced event") { $0.properties["price"] != nil }))
        #expect(spy.expectAll(.where("a non-empty name") { !$0.name.isEmpty }))
        expectOneIssue(
            containing: ["Expected every event to match a priced event, but 2 did not:", "[0] screen Menu"],
            atLine: #line + 2
        ) {
            spy.expectAll(.where("a priced event") { $0.properties["price"] != nil })
        }
    }

    @Test func nothingElseFailsForEventsNoExpectationAccountedFor() {
        spy.expectTracked(.screen("Menu"))
        spy.expectTracked(.named("menu_item_ordered"))
        expectOneIssue(
            containing: ["1 event was not accounted for by an expectation:\n  [2] track checkout_started"],
            atLine: #line + 2
        ) {
            spy.expectNothingElse()
        }
        spy.expectTracked(.named("checkout_started"))
        #expect(spy.expectNothingElse())
    }

    @Test func aDuplicateEventIsCaughtByNothingElse() {
        let spy = AnalyticsSpy()
        spy.track("purchase")
        spy.track("purchase")
        spy.expectTracked(Event("purchase"))
        expectOneIssue(containing: ["[1] track purchase"], atLine: #line + 1) {
            spy.expectNothingElse()
        }
    }

    @Test func noEventsPassesOnAnEmptySpyAndFailsOtherwise() {
        #expect(AnalyticsSpy().expectNoEvents())
        expectOneIssue(containing: ["Expected 0 events matching any event, but 3 were recorded."], atLine: #line + 1) {
            spy.expectNoEvents()
        }
    }

    @Test func longRecordingsAreElidedInMessages() {
        let spy = AnalyticsSpy()
        for index in 0..<50 { spy.track("e\(index)") }
        expectOneIssue(
            containing: ["Recorded (50):", "[9] track e9", "… 30 more …", "[40] track e40"], atLine: #line + 2
        ) {
            spy.expectTracked(Event("missing"))
        }
    }
}

/// Expectations scoped to a block: only what is tracked while it runs counts.
struct ScopedExpectationTests {
    @Test func onlyEventsTrackedDuringTheBlockCount() {
        let spy = AnalyticsSpy()
        spy.track("login_tapped")
        #expect(spy.events(during: { spy.track("sign_up_tapped") }) == [Event("sign_up_tapped")])
        #expect(spy.expectTracked(Event("sign_up_tapped"), when: { spy.track("sign_up_tapped") }))
        expectOneIssue(
            containing: ["Expected track login_tapped to have been tracked, but it was not."], atLine: #line + 2
        ) {
            spy.expectTracked(Event("login_tapped"), when: { spy.track("something_else") })
        }
    }

    @Test func notTrackedWhenTheBlockRuns() {
        let spy = AnalyticsSpy()
        spy.track("menu_item_ordered")
        #expect(spy.expectNotTracked(.named("menu_item_ordered"), when: { spy.track("menu_item_removed") }))
        expectOneIssue(containing: [#"Expected "x" not to have been tracked"#], atLine: #line + 1) {
            spy.expectNotTracked(.named("x"), when: { spy.track("x") })
        }
    }

    @Test func anyExpectationCanBeScoped() {
        let spy = AnalyticsSpy()
        spy.screen("Login")
        spy.expect(when: { spy.track("login_tapped", ["action": "tap"]) }) { spy in
            spy.expectTracked(Event("login_tapped", ["action": "tap"]))
            spy.expectCount(1)
            spy.expectNothingElse()
        }
    }
}

/// Large recordings are scanned in parts; the results must be those of one scan.
struct LargeRecordingExpectationTests {
    @Test func expectationsOverTensOfThousandsOfEventsFindTheFirstUnaccountedMatch() {
        let spy = AnalyticsSpy()
        for index in 0..<40_000 { spy.track("tick", ["i": .int(index % 3)]) }
        spy.track("last")
        #expect(spy.expectCount(13_334, of: .named("tick", containing: ["i": 0])))
        #expect(spy.expectCount(40_000, of: .named("tick")))
        #expect(spy.expectTracked(Event("last")))
        #expect(spy.expectNothingElse())
        // A second expectation for an event seen once fails: each expectTracked accounts for one event.
        expectOneIssue(
            containing: [
                "Expected track last to have been tracked once more, but its only match was accounted for by an earlier expectation:",
                "  [40000] track last",
            ], atLine: #line + 2
        ) {
            spy.expectTracked(Event("last"))
        }
        expectOneIssue(
            containing: ["Expected track missing to have been tracked", "Recorded (40001):"], atLine: #line + 2
        ) {
            spy.expectTracked(Event("missing"))
        }
    }

    @Test func theFirstUnaccountedMatchComesFromTheEarliestPart() {
        let spy = AnalyticsSpy()
        for index in 0..<50_000 { spy.track(index == 10 || index == 45_000 ? "needle" : "hay") }
        spy.expectTracked(.named("needle"))
        spy.expectTracked(.named("needle"))
        spy.expectCount(49_998, of: .named("hay"))
        #expect(spy.expectNothingElse())
    }
}
