import Tally
import Testing

@testable import TallyTesting

/// The summary must reject what it can (or it only adds cost) and never what might be equal.
struct PropertySummaryTests {
    let summary = PropertySummary(["item_name": "Pizza Margherita", "quantity": 1, "price": 9.5])

    @Test func rejectsADifferentNumberKeyOrASCIIString() {
        #expect(summary.mayEqual(["price": 9.5, "quantity": 1, "item_name": "Pizza Margherita"]))
        #expect(!summary.mayEqual(["item_name": "Pizza Margherita", "quantity": 2, "price": 9.5]))
        #expect(!summary.mayEqual(["item_name": "Pizza Margheritas", "quantity": 1, "price": 9.5]))
        #expect(!summary.mayEqual(["item_name": "Pizza Marinara!!", "quantity": 1, "price": 9.5]))
        #expect(!summary.mayEqual(["item_title": "Pizza Margherita", "quantity": 1, "price": 9.5]))
        #expect(!summary.mayEqual(["item_name": "Pizza Margherite", "quantity": 1, "price": 9.5]))
        #expect(!PropertySummary(["name": "Pizza Pepperoni"]).mayEqual(["name": "Pizza Pepperona"]))
        #expect(!summary.mayEqual(["item_name": "Pizza Margherita", "quantity": 1]))
        #expect(!summary.mayEqual(["item_name": "Pizza Margherita", "quantity": 1, "price": .int(9)]))
    }

    @Test func leavesOutTextThatIsNotASCII() {
        // Each of these could equal an ASCII spelling, so only the full comparison may decide.
        #expect(PropertySummary(["K": "x"]).mayEqual(["\u{212A}": "x"]))
        #expect(PropertySummary(["name": "caf\u{E9}"]).mayEqual(["name": "cafe\u{301}"]))
        #expect(PropertySummary(["name": "caf\u{E9}"]).mayEqual(["name": "tea"]))
        #expect(PropertySummary(["zero": .double(0)]).mayEqual(["zero": .double(-0.0)]))
    }
}
