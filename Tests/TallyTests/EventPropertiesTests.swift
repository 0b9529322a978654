import CustomDump
import Foundation
import Tally
import TallyTesting
import Testing

/// `Event.Properties` is read as one dictionary however it is layered: the event's own keys over the super
/// properties a processor shares with every event.
struct EventPropertiesTests {
    /// An event as the client hands it to destinations after `.superProperties`, with a layer under the
    /// event's own properties.
    static func layered(
        _ own: [String: PropertyValue], over shared: [String: PropertyValue], kind: Event.Kind = .track
    ) -> Event {
        let envelope = Envelope(
            event: Event(kind: kind, name: kind == .track ? "menu_item_ordered" : "", properties: own),
            messageId: MessageID(prefix: 1, sequence: 1), timestamp: Date(timeIntervalSince1970: 0),
            anonymousId: "anon")
        return SuperPropertiesProcessor(shared, kinds: [kind]).process(envelope)!.event
    }

    let event = layered(["item_name": "Pizza", "plan": "free"], over: ["plan": "pro", "app_version": "2.3.0"])
    let flat: Event.Properties = ["item_name": "Pizza", "plan": "free", "app_version": "2.3.0"]

    @Test func theEventsOwnKeysHideTheSharedOnes() {
        #expect(event.properties["plan"] == "free")
        #expect(event.properties["app_version"] == "2.3.0")
        #expect(event.properties["missing"] == nil)
        #expect(event.properties.count == 3)
        #expect(!event.properties.isEmpty)
        #expect(Set(event.properties.keys) == ["item_name", "plan", "app_version"])
        #expect(event.properties.dictionary == ["item_name": "Pizza", "plan": "free", "app_version": "2.3.0"])
    }

    @Test func iterationSeesEachKeyOnce() {
        var seen: [String: PropertyValue] = [:]
        for (key, value) in event.properties {
            #expect(seen.updateValue(value, forKey: key) == nil, "\(key) came twice")
        }
        #expect(seen == flat.dictionary)
        #expect(event.properties.underestimatedCount <= event.properties.count)
    }

    @Test func layeredAndFlatPropertiesAreEqualHashAndEncodeAlike() throws {
        #expect(event.properties == flat)
        #expect(event.properties.hashValue == flat.hashValue)
        #expect(event.properties != ["item_name": "Pizza", "plan": "pro", "app_version": "2.3.0"])
        #expect(event.properties != ["item_name": "Pizza", "plan": "free"])
        let flatEvent = Event("menu_item_ordered", flat.dictionary)
        #expect(event == flatEvent)
        #expect(Set([event, flatEvent]).count == 1)

        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(event) == encoder.encode(flatEvent))
        #expect(try JSONDecoder().decode(Event.self, from: encoder.encode(event)) == flatEvent)
        #expect(event.properties.jsonString == #"{"app_version":"2.3.0","item_name":"Pizza","plan":"free"}"#)
        #expect(event.description == flatEvent.description)
        #expect(String(customDumping: event) == String(customDumping: flatEvent))
    }

    @Test func writingAKeyOverridesTheSharedValue() {
        var properties = event.properties
        properties["app_version"] = "3.0"
        #expect(properties["app_version"] == "3.0")
        #expect(properties.count == 3)
        #expect(properties.updateValue("9", forKey: "app_version") == "3.0")
        // The shared layer itself is not changed: other events still read the original.
        #expect(event.properties["app_version"] == "2.3.0")
    }

    @Test func removingASharedKeyRemovesItFromTheMergedView() {
        var properties = event.properties
        #expect(properties.removeValue(forKey: "app_version") == "2.3.0")
        #expect(properties["app_version"] == nil)
        #expect(properties == ["item_name": "Pizza", "plan": "free"])
        // "plan" is in both layers: removing it leaves no value behind.
        properties["plan"] = nil
        #expect(properties["plan"] == nil)
        #expect(properties.count == 1)
        properties.removeAll()
        #expect(properties.isEmpty && properties.count == 0)
    }

    @Test func filterMapAndMergeWorkOnTheMergedView() {
        #expect(event.properties.filter { $0.key != "plan" } == ["item_name": "Pizza", "app_version": "2.3.0"])
        #expect(event.properties.mapValues { _ in .null }.count == 3)
        var merged = event.properties
        merged.merge(["app_version": "4.0", "new": true])
        #expect(merged["app_version"] == "4.0" && merged["new"] == true)
        var kept = event.properties
        kept.merge(["app_version": "4.0", "plan": "x"]) { existing, _ in existing }
        #expect(kept == flat)
    }

    @Test func twoSuperPropertiesProcessorsKeepTheFirstOnesValues() {
        let envelope = Envelope(
            event: Event("menu_item_ordered", ["item_name": "Pizza"]), messageId: MessageID(prefix: 1, sequence: 1),
            timestamp: Date(timeIntervalSince1970: 0), anonymousId: "anon")
        let first = SuperPropertiesProcessor(["plan": "pro"]).process(envelope)!
        let second = SuperPropertiesProcessor(["plan": "free", "app_version": "2.3.0"]).process(first)!
        #expect(second.event.properties == ["item_name": "Pizza", "plan": "pro", "app_version": "2.3.0"])
    }

    @Test func redactionReachesSuperProperties() throws {
        let envelope = Envelope(
            event: Self.layered(["item_name": "Pizza"], over: ["email": "a@example.com", "plan": "pro"]),
            messageId: MessageID(prefix: 1, sequence: 1), timestamp: Date(timeIntervalSince1970: 0),
            anonymousId: "anon")
        let redacted = RedactionProcessor(keys: ["email"]).process(envelope)!
        #expect(redacted.event.properties == ["item_name": "Pizza", "email": "[redacted]", "plan": "pro"])
    }

    @Test func inputLimitsSeeTheMergedProperties() {
        let bad = Self.layered(["item_name": "Pizza"], over: ["ratio": .double(.nan)])
        let (sanitized, problems) = InputLimits.default.sanitize(bad)
        #expect(sanitized?.properties == ["item_name": "Pizza", "ratio": .null])
        #expect(problems.map(\.code) == [.nonFiniteNumber])
    }

    @Test func recordsWriteTheMergedProperties() throws {
        let envelope = Envelope(
            event: event, messageId: MessageID(prefix: 1, sequence: 1), timestamp: Date(timeIntervalSince1970: 0),
            anonymousId: "anon")
        let line = Record(envelope: envelope).encodedLine().bytes
        let read = try Record(line: line)
        #expect(read.envelope.event.properties == flat)
    }

    @Test func theClientDeliversSuperPropertiesUnderTheEventsOwn() async {
        let destination = InMemoryDestination()
        let analytics = AnalyticsClient(
            processors: [.superProperties(["plan": "pro", "app_version": "2.3.0"])], destinations: [destination])
        analytics.track(Event("menu_item_ordered", ["item_name": "Pizza", "plan": "free"]))
        analytics.identify(userId: "u-1", traits: ["plan": "team"])
        await analytics.flush()
        #expect(destination.events.map(\.properties) == [flat, ["plan": "team"]])
    }
}
