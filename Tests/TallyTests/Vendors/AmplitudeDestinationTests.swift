#if SpyMacro
import Foundation
import Tally
import TallySpy
import Testing

/// A stand-in for Amplitude-Swift's `Amplitude` with its exact signatures: `EventOptions`, default
/// arguments, `@discardableResult` returns of `Amplitude`, and the overloads that must not confuse the
/// conformance.
enum FakeAmplitude {
    class EventOptions {}
    class BaseEvent {}

    class Amplitude {
        private let lock = NSLock()
        private var recorded: [String] = []
        var sdkCalls: [String] { lock.withLock { recorded } }

        private func record(_ call: String) -> Amplitude {
            lock.withLock { recorded.append(call) }
            return self
        }

        @discardableResult
        func track(event: BaseEvent, options: EventOptions? = nil, callback: ((Int) -> Void)? = nil) -> Amplitude {
            record("track(event:)")
        }

        @discardableResult
        func track(eventType: String, eventProperties: [String: Any]? = nil, options: EventOptions? = nil) -> Amplitude
        {
            record("track \(eventType) \(eventProperties.map { $0.keys.sorted() } ?? [])")
        }

        @discardableResult
        func identify(userProperties: [String: Any]?, options: EventOptions? = nil) -> Amplitude {
            record("identify \(userProperties.map { $0.keys.sorted() } ?? [])")
        }

        @discardableResult
        func setUserId(userId: String?) -> Amplitude { record("setUserId \(userId ?? "nil")") }

        @discardableResult
        func setGroup(groupType: String, groupName: String, options: EventOptions? = nil) -> Amplitude {
            record("setGroup \(groupType) \(groupName)")
        }

        @discardableResult
        func setGroup(groupType: String, groupName: [String], options: EventOptions? = nil) -> Amplitude {
            record("setGroup \(groupType) \(groupName) (array)")
        }

        @discardableResult
        func groupIdentify(
            groupType: String, groupName: String, groupProperties: [String: Any]?, options: EventOptions? = nil
        ) -> Amplitude {
            record("groupIdentify \(groupType) \(groupName) \(groupProperties.map { $0.keys.sorted() } ?? [])")
        }

        @discardableResult
        func reset() -> Amplitude { record("reset") }
    }
}

// The conformance an app writes: empty.
extension FakeAmplitude.Amplitude: AmplitudeAdapter {}

extension Vendors {
    @Suite struct AmplitudeDestinationTests {
        let spy = AmplitudeSpy()
        var destination: AmplitudeDestination { AmplitudeDestination(adapter: spy) }

        // MARK: Kinds

        @Test func trackTracksTheEventWithItsProperties() {
            let delivery = deliver(Event("menu_item_ordered", ["item_name": "Pizza", "price": 9.5]), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([
                .track(
                    eventType: "menu_item_ordered", eventProperties: ["item_name": "Pizza", "price": 9.5], options: nil)
            ])
        }

        @Test func bigNumbersADecimalCannotHoldAreConvertedOrRemovedAtAnyDepth() {
            let exact = PropertyValue.bigNumber(BigNumber("18446744073709551617")!)
            let fortyDigits = "1234567890123456789012345678901234567890"
            let event = Event(
                "e", ["exact": exact, "list": [.bigNumber(BigNumber(fortyDigits)!), .bigNumber(BigNumber("1e400")!)]])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([
                .track(
                    eventType: "e", eventProperties: ["exact": exact, "list": [Double(fortyDigits)!]],
                    options: nil)
            ])
            #expect(delivery.problems.map(\.path) == ["/properties/list/0", "/properties/list/1"])
            #expect(delivery.problems.allSatisfy { $0.destination == "amplitude" && $0.eventName == "e" })
        }

        @Test func trackWithoutPropertiesPassesNil() {
            _ = deliver(Event("app_opened"), to: destination)
            spy.expectExactly([.track(eventType: "app_opened", eventProperties: nil, options: nil)])
        }

        @Test func screenTracksAmplitudesScreenViewed() {
            let delivery = deliver(.screen("Menu", ["section": "pizza"]), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([
                .track(
                    eventType: "[Amplitude] Screen Viewed",
                    eventProperties: ["[Amplitude] Screen Name": "Menu", "section": "pizza"], options: nil)
            ])
        }

        @Test func theScreenNameWinsOverAScreenNameProperty() {
            let event = Event.screen("Menu", ["[Amplitude] Screen Name": "Other"])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([
                .track(
                    eventType: "[Amplitude] Screen Viewed", eventProperties: ["[Amplitude] Screen Name": "Menu"],
                    options: nil)
            ])
            #expect(delivery.problems.count == 1)
            expectVendorProblem(
                delivery.problems.first, destination: "amplitude", event: event,
                path: "/properties/[Amplitude] Screen Name", mentioning: "replaced")
        }

        @Test func identifySetsTheUserIdThenTheUserProperties() {
            _ = deliver(.identify(userId: "user-42", traits: ["plan": "pro"]), to: destination)
            spy.expectExactly([.setUserId(userId: "user-42"), .identify(userProperties: ["plan": "pro"], options: nil)])
        }

        @Test func identifyWithoutTraitsOnlySetsTheUserId() {
            _ = deliver(.identify(userId: "user-42"), to: destination)
            spy.expectExactly([.setUserId(userId: "user-42")])
        }

        @Test func groupSetsTheGroupThenItsProperties() {
            _ = deliver(.group("acme", traits: ["seats": 10]), to: destination)
            spy.expectExactly([
                .setGroup(groupType: "group", groupName: "acme", options: nil),
                .groupIdentify(groupType: "group", groupName: "acme", groupProperties: ["seats": 10], options: nil),
            ])
        }

        @Test func theGroupTypeIsConfigurable() {
            _ = deliver(.group("acme"), to: AmplitudeDestination(adapter: spy, groupType: "org"))
            spy.expectExactly([.setGroup(groupType: "org", groupName: "acme", options: nil)])
        }

        @Test func aliasSetsTheNewUserId() {
            _ = deliver(.alias("user-43"), to: destination, userId: "user-42")
            spy.expectExactly([.setUserId(userId: "user-43")])
        }

        // MARK: Strings

        static let long = String(repeating: "x", count: 1025)
        static let cut = PropertyValue.string(String(repeating: "x", count: 1024))

        struct StringCase: Sendable, CustomTestStringConvertible {
            var testDescription: String
            var properties: [String: PropertyValue]
            var sent: [String: PropertyValue]
            var paths: [String]
        }

        static let stringCases: [StringCase] = [
            StringCase(
                testDescription: "top level", properties: ["note": .string(long), "n": 1], sent: ["note": cut, "n": 1],
                paths: ["/properties/note"]),
            StringCase(
                testDescription: "in an array", properties: ["tags": ["ok", .string(long)]],
                sent: ["tags": ["ok", cut]],
                paths: ["/properties/tags/1"]),
            StringCase(
                testDescription: "in an object", properties: ["address": ["street": .string(long)]],
                sent: ["address": ["street": cut]], paths: ["/properties/address/street"]),
            StringCase(
                testDescription: "deep, with an escaped key",
                properties: ["a/b": ["list": [["text": .string(long)]]]], sent: ["a/b": ["list": [["text": cut]]]],
                paths: ["/properties/a~1b/list/0/text"]),
            StringCase(
                testDescription: "one problem per string", properties: ["a": .string(long), "b": [.string(long)]],
                sent: ["a": cut, "b": [cut]], paths: ["/properties/a", "/properties/b/0"]),
            StringCase(
                testDescription: "emoji are cut whole",
                properties: ["e": .string(String(repeating: "😀", count: 513))],
                sent: ["e": .string(String(repeating: "😀", count: 512))], paths: ["/properties/e"]),
            StringCase(
                testDescription: "exactly 1,024 is untouched", properties: ["note": cut], sent: ["note": cut], paths: []
            ),
        ]

        @Test(arguments: stringCases)
        func stringsLongerThan1024AreCutAtAnyDepth(_ rule: StringCase) {
            let event = Event("ordered", rule.properties)
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.track(eventType: "ordered", eventProperties: rule.sent, options: nil)])
            #expect(delivery.problems.map(\.path) == rule.paths)
            for problem in delivery.problems {
                expectVendorProblem(
                    problem, destination: "amplitude", event: event, path: problem.path,
                    mentioning: "at most 1024 characters")
            }
        }

        @Test func traitsAndGroupPropertiesAreCutToo() {
            let identify = Event.identify(userId: "user-42", traits: ["bio": .string(Self.long)])
            let group = Event.group("acme", traits: ["motto": [.string(Self.long)]])
            let identified = deliver(identify, to: destination)
            let grouped = deliver(group, to: destination)
            spy.expectExactly([
                .setUserId(userId: "user-42"), .identify(userProperties: ["bio": Self.cut], options: nil),
                .setGroup(groupType: "group", groupName: "acme", options: nil),
                .groupIdentify(
                    groupType: "group", groupName: "acme", groupProperties: ["motto": [Self.cut]], options: nil),
            ])
            #expect(identified.problems.map(\.path) == ["/traits/bio"])
            #expect(grouped.problems.map(\.path) == ["/traits/motto/0"])
        }

        @Test func aLongScreenNameIsCutWithAPathToTheName() {
            let event = Event.screen(Self.long)
            let delivery = deliver(event, to: destination)
            spy.expectExactly([
                .track(
                    eventType: "[Amplitude] Screen Viewed", eventProperties: ["[Amplitude] Screen Name": Self.cut],
                    options: nil)
            ])
            #expect(delivery.problems.count == 1)
            expectVendorProblem(
                delivery.problems.first, destination: "amplitude", event: event, path: "/name",
                mentioning: "at most 1024")
        }

        @Test func theLimitIsConfigurable() {
            let destination = AmplitudeDestination(adapter: spy, limits: AmplitudeLimits(maximumStringLength: 3))
            let delivery = deliver(Event("ordered", ["note": "abcd"]), to: destination)
            spy.expectExactly([.track(eventType: "ordered", eventProperties: ["note": "abc"], options: nil)])
            #expect(delivery.problems.count == 1)
        }

        // MARK: Reset

        @Test func resetCallsAmplitudesReset() {
            destination.reset()
            spy.expectExactly([.reset])
        }

        @Test func throughTheClientResetComesBetweenTheEventsBeforeAndAfterIt() async {
            let analytics = AnalyticsClient(destinations: [destination])
            analytics.identify(userId: "user-42", traits: ["plan": "pro"])
            analytics.reset()
            analytics.track("browsing")
            await analytics.flush()
            spy.expectExactly([
                .setUserId(userId: "user-42"),
                .identify(userProperties: ["plan": "pro"], options: nil),
                .reset,
                .track(eventType: "browsing", eventProperties: nil, options: nil),
            ])
            #expect(analytics.statistics.destinations["amplitude"]?.delivered == 2)
            await analytics.shutdown()
        }

        // MARK: Through the client and the SDK

        @Test func throughTheClientCutStringsAreReportedAndDelivered() async {
            let analytics = AnalyticsClient(destinations: [destination])
            analytics.track("ordered", ["note": .string(Self.long)])
            await analytics.flush()
            spy.expectExactly([.track(eventType: "ordered", eventProperties: ["note": Self.cut], options: nil)])
            let statistics = analytics.statistics
            #expect(statistics.destinations["amplitude"]?.delivered == 1)
            #expect(statistics.destinations["amplitude"]?.dropped == [:])
            #expect(statistics.recentProblems.count == 1)
            #expect(statistics.recentProblems.first?.code == .vendorLimit)
            #expect(statistics.recentProblems.first?.destination == "amplitude")
            #expect(statistics.recentProblems.first?.path == "/properties/note")
            await analytics.shutdown()
        }

        @Test func theEmptyConformanceReachesTheSDKsOwnMethods() async {
            let sdk = FakeAmplitude.Amplitude()
            let analytics = AnalyticsClient(destinations: [AmplitudeDestination(adapter: sdk)])
            analytics.track("ordered", ["item_name": "Pizza"])
            analytics.identify(userId: "user-42", traits: ["plan": "pro"])
            analytics.group("acme", traits: ["seats": 3])
            await analytics.flush()
            #expect(
                sdk.sdkCalls == [
                    "track ordered [\"item_name\"]",
                    "setUserId user-42",
                    "identify [\"plan\"]",
                    "setGroup group acme",
                    "groupIdentify group acme [\"seats\"]",
                ])
            await analytics.shutdown()
        }

        @Test func theEmptyConformanceReachesTheSDKsReset() async {
            let sdk = FakeAmplitude.Amplitude()
            let analytics = AnalyticsClient(destinations: [AmplitudeDestination(adapter: sdk)])
            analytics.identify(userId: "user-42")
            analytics.reset()
            analytics.track("browsing")
            await analytics.flush()
            #expect(sdk.sdkCalls == ["setUserId user-42", "reset", "track browsing []"])
            await analytics.shutdown()
        }
    }
}
#endif
