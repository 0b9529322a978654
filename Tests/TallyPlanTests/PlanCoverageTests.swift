import Foundation
import Tally
import TallyPlan
import Testing

@Suite("Plan coverage", .readsPlans)
struct PlanCoverageTests {
    static let plan = try! TrackingPlan(
        text: """
            version: 1
            events:
              - name: menu_item_ordered
                description: x
                properties:
                  item_name: { type: string }
                  size: { enum: [small, large] }
                  quantity: { type: integer }
              - name: checkout_started
                description: x
                properties:
                  coupon: { type: string }
              - name: Login
                kind: screen
                description: x
              - name: user
                kind: identify
                description: x
            """)

    static let events: [Event] = [
        Event("menu_item_ordered", ["item_name": "Pizza", "size": "small"]),
        Event("menu_item_ordered", ["item_name": "Pasta"]),
        .screen("Login"),
        .identify(userId: "u-1"),
        Event("debug_ping"),
        Event("debug_ping"),
    ]

    /// Counted by kind, named by what the first carries, as `tally validate` names them (issue 23: the JSON
    /// said `"name": ""`).
    @Test func unplannedIdentifyGroupAndAliasEventsAreCountedByKindAndNamedByWhatTheyCarry() throws {
        let plan = try TrackingPlan(text: "version: 1\nevents:\n  - name: e\n    description: x\n")
        let coverage = PlanCoverage(
            plan: plan, events: [.identify(userId: "u-1"), .identify(userId: "u-2"), .group("acme"), Event("x")])
        let table = coverage.renderTable()
        #expect(
            table.contains(#"Unplanned events: track "x" ×1, identify u-1 and other ids ×2, group acme ×1"#),
            "\(table)")
        let markdown = coverage.renderMarkdown()
        #expect(markdown.contains("- `identify u-1` and other ids (2)\n- `group acme` (1)"), "\(markdown)")
        #expect(!(table + markdown).contains(#"identify """#) && !markdown.contains("identify ``"))
        let json = try PropertyValue(json: String(decoding: coverage.renderJSON(), as: UTF8.self))
        #expect(
            json.objectValue?["unplannedEvents"] == [
                ["count": 1, "kind": "track", "name": "x"],
                ["count": 2, "kind": "identify", "name": "identify u-1", "otherIds": true],
                ["count": 1, "kind": "group", "name": "group acme"],
            ])
        // A report read back (a baseline) keeps them.
        #expect(try PlanCoverage(json: coverage.renderJSON()).unplannedEvents == coverage.unplannedEvents)
    }

    @Test func countsEventsPropertiesAndEnumValues() {
        let coverage = PlanCoverage(plan: Self.plan, events: Self.events)
        #expect(coverage.events.map(\.name) == ["checkout_started", "menu_item_ordered", "Login", "user"])
        #expect(coverage.events.map(\.count) == [0, 2, 1, 1])
        let ordered = coverage.events[1]
        #expect(ordered.properties.map(\.name) == ["item_name", "quantity", "size"])
        #expect(ordered.properties.map(\.count) == [2, 0, 1])
        #expect(ordered.properties[2].seenValues == ["small"])
        #expect(ordered.properties[2].unseenValues == ["large"])
        #expect(coverage.unplannedEvents == [PlanCoverage.UnplannedEvent(name: "debug_ping", kind: .track, count: 2)])
        #expect(coverage.eventMeasure == PlanCoverage.Measure(seen: 3, planned: 4))
        #expect(coverage.propertyMeasure == PlanCoverage.Measure(seen: 2, planned: 4))
        #expect(coverage.enumValueMeasure == PlanCoverage.Measure(seen: 1, planned: 2))
        #expect(coverage.eventMeasureByKind[.track] == PlanCoverage.Measure(seen: 1, planned: 2))
        #expect(coverage.eventMeasureByKind[.identify] == PlanCoverage.Measure(seen: 1, planned: 1))
    }

    @Test func regressionsNameWhatABaselineSawAndThisRunDidNot() throws {
        let baseline = PlanCoverage(plan: Self.plan, events: Self.events + [Event("checkout_started", ["coupon": "X"])])
        let now = PlanCoverage(
            plan: Self.plan, events: [Event("menu_item_ordered", ["item_name": "Pizza", "size": "large"])])
        #expect(
            now.regressions(since: baseline).map(\.description) == [
                #"track "checkout_started" is no longer seen"#,
                #"track "menu_item_ordered": value "small" of size is no longer seen"#,
                #"screen "Login" is no longer seen"#,
                #"identify "user" is no longer seen"#,
            ])
        #expect(baseline.regressions(since: baseline) == [])
        // A baseline survives a round trip through its JSON.
        let decoded = try PlanCoverage(json: baseline.renderJSON())
        #expect(now.regressions(since: decoded) == now.regressions(since: baseline))
    }

    @Test func rendersATerminalTable() {
        let coverage = PlanCoverage(plan: Self.plan, events: Self.events)
        #expect(
            coverage.renderTable() == """
                Plan coverage: 3/4 events (75.0%), 2/4 properties (50.0%), 1/2 enum values (50.0%)
                KIND      EVENT              SEEN  PROPERTIES  ENUM VALUES
                track     checkout_started      0  0/1         -
                track     menu_item_ordered     2  2/3         1/2
                screen    Login                 1  0/0         -
                identify  user                  1  0/0         -
                Unplanned events: track "debug_ping" ×2

                """)
        #expect(coverage.renderTable(colors: true).contains("\u{1B}[1;31mtrack     checkout_started"))
    }

    @Test func rendersMarkdown() {
        let markdown = PlanCoverage(plan: Self.plan, events: Self.events).renderMarkdown()
        #expect(markdown.contains("| track | `menu_item_ordered` | 2 | 2/3 | 1/2 |"))
        #expect(markdown.contains("- `menu_item_ordered`: property `quantity` never set"))
        #expect(markdown.contains(#"- `menu_item_ordered`: `size` never sent `"large"`"#))
        #expect(markdown.contains("- track `debug_ping` (2)"))
    }

    @Test func rendersJUnit() {
        let coverage = PlanCoverage(plan: Self.plan, events: [Event("menu_item_ordered")])
        let regression = PlanCoverage.Regression(kind: .eventNoLongerSeen, eventKind: .track, eventName: "a<b")
        let xml = coverage.renderJUnit(regressions: [regression])
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(xml.contains(#"<testsuites name="tracking-plan-coverage" tests="5" failures="4">"#))
        #expect(xml.contains(#"<testcase classname="plan.events" name="track menu_item_ordered"/>"#))
        #expect(xml.contains(#"<testcase classname="plan.events" name="identify user">"#))
        #expect(xml.contains(#"name="track &quot;a&lt;b&quot; is no longer seen""#))
    }

    @Test func anEmptyPlanIsFullyCovered() {
        let coverage = PlanCoverage(plan: TrackingPlan(events: []), events: [])
        #expect(coverage.eventMeasure.ratio == 1)
        #expect(
            coverage.summary == "Plan coverage: 0/0 events (100.0%), 0/0 properties (100.0%), 0/0 enum values (100.0%)")
    }
}
