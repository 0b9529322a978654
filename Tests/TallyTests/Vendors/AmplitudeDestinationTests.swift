import Foundation
import Tally
import Testing

/// Records every Amplitude call, safely from any thread. It has no options type, so it takes `Never?`.
final class AmplitudeSpy: AmplitudeAdapter, @unchecked Sendable {
    enum Call: Equatable {
        case track(eventType: String, eventProperties: [String: PropertyValue]?)
        case identify(userProperties: [String: PropertyValue]?)
        case setUserId(String?)
        case setGroup(groupType: String, groupName: String)
        case groupIdentify(groupType: String, groupName: String, groupProperties: [String: PropertyValue]?)
        case reset
    }

    private let lock = NSLock()
    private var recorded: [Call] = []

    var calls: [Call] { lock.withLock { recorded } }

    func track(eventType: String, eventProperties: [String: Any]?, options: Never?) {
        record(.track(eventType: eventType, eventProperties: typed(eventProperties)))
    }

    func identify(userProperties: [String: Any]?, options: Never?) {
        record(.identify(userProperties: typed(userProperties)))
    }

    func setUserId(userId: String?) { record(.setUserId(userId)) }

    func setGroup(groupType: String, groupName: String, options: Never?) {
        record(.setGroup(groupType: groupType, groupName: groupName))
    }

    func groupIdentify(groupType: String, groupName: String, groupProperties: [String: Any]?, options: Never?) {
        record(.groupIdentify(groupType: groupType, groupName: groupName, groupProperties: typed(groupProperties)))
    }

    func reset() { record(.reset) }

    private func record(_ call: Call) { lock.withLock { recorded.append(call) } }
}

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
            #expect(
                spy.calls == [
                    .track(eventType: "menu_item_ordered", eventProperties: ["item_name": "Pizza", "price": 9.5])
                ])
        }

        @Test func trackWithoutPropertiesPassesNil() {
            _ = deliver(Event("app_opened"), to: destination)
            #expect(spy.calls == [.track(eventType: "app_opened", eventProperties: nil)])
        }

        @Test func screenTracksAmplitudesScreenViewed() {
            let delivery = deliver(.screen("Menu", ["section": "pizza"]), to: destination)
            #expect(delivery.problems.isEmpty)
            #expect(
                spy.calls == [
                    .track(
                        eventType: "[Amplitude] Screen Viewed",
                        eventProperties: ["[Amplitude] Screen Name": "Menu", "section": "pizza"])
                ])
        }

        @Test func theScreenNameWinsOverAScreenNameProperty() {
            let event = Event.screen("Menu", ["[Amplitude] Screen Name": "Other"])
            let delivery = deliver(event, to: destination)
            #expect(
                spy.calls == [
                    .track(eventType: "[Amplitude] Screen Viewed", eventProperties: ["[Amplitude] Screen Name": "Menu"])
                ])
            #expect(delivery.problems.count == 1)
            expectVendorProblem(
                delivery.problems.first, destination: "amplitude", event: event,
                path: "/properties/[Amplitude] Screen Name", mentioning: "replaced")
        }

        @Test func identifySetsTheUserIdThenTheUserProperties() {
            _ = deliver(.identify(userId: "user-42", traits: ["plan": "pro"]), to: destination)
            #expect(spy.calls == [.setUserId("user-42"), .identify(userProperties: ["plan": "pro"])])
        }

        @Test func identifyWithoutTraitsOnlySetsTheUserId() {
            _ = deliver(.identify(userId: "user-42"), to: destination)
            #expect(spy.calls == [.setUserId("user-42")])
        }

        @Test func groupSetsTheGroupThenItsProperties() {
            _ = deliver(.group("acme", traits: ["seats": 10]), to: destination)
            #expect(
                spy.calls == [
                    .setGroup(groupType: "group", groupName: "acme"),
                    .groupIdentify(groupType: "group", groupName: "acme", groupProperties: ["seats": 10]),
                ])
        }

        @Test func theGroupTypeIsConfigurable() {
            _ = deliver(.group("acme"), to: AmplitudeDestination(adapter: spy, groupType: "org"))
            #expect(spy.calls == [.setGroup(groupType: "org", groupName: "acme")])
        }

        @Test func aliasSetsTheNewUserId() {
            _ = deliver(.alias("user-43"), to: destination, userId: "user-42")
            #expect(spy.calls == [.setUserId("user-43")])
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
            #expect(spy.calls == [.track(eventType: "ordered", eventProperties: rule.sent)])
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
            #expect(
                spy.calls == [
                    .setUserId("user-42"), .identify(userProperties: ["bio": Self.cut]),
                    .setGroup(groupType: "group", groupName: "acme"),
                    .groupIdentify(groupType: "group", groupName: "acme", groupProperties: ["motto": [Self.cut]]),
                ])
            #expect(identified.problems.map(\.path) == ["/properties/bio"])
            #expect(grouped.problems.map(\.path) == ["/properties/motto/0"])
        }

        @Test func aLongScreenNameIsCutWithAPathToTheName() {
            let event = Event.screen(Self.long)
            let delivery = deliver(event, to: destination)
            #expect(
                spy.calls == [
                    .track(
                        eventType: "[Amplitude] Screen Viewed", eventProperties: ["[Amplitude] Screen Name": Self.cut])
                ])
            #expect(delivery.problems.count == 1)
            expectVendorProblem(
                delivery.problems.first, destination: "amplitude", event: event, path: "/name",
                mentioning: "at most 1024")
        }

        @Test func theLimitIsConfigurable() {
            let destination = AmplitudeDestination(adapter: spy, limits: AmplitudeLimits(maximumStringLength: 3))
            let delivery = deliver(Event("ordered", ["note": "abcd"]), to: destination)
            #expect(spy.calls == [.track(eventType: "ordered", eventProperties: ["note": "abc"])])
            #expect(delivery.problems.count == 1)
        }

        // MARK: Reset

        @Test func resetCallsAmplitudesReset() {
            destination.reset()
            #expect(spy.calls == [.reset])
        }

        @Test func throughTheClientResetComesBetweenTheEventsBeforeAndAfterIt() async {
            let analytics = AnalyticsClient(destinations: [destination])
            analytics.identify(userId: "user-42", traits: ["plan": "pro"])
            analytics.reset()
            analytics.track("browsing")
            await analytics.flush()
            #expect(
                spy.calls == [
                    .setUserId("user-42"),
                    .identify(userProperties: ["plan": "pro"]),
                    .reset,
                    .track(eventType: "browsing", eventProperties: nil),
                ])
            #expect(analytics.diagnostics.destinations["amplitude"]?.delivered == 2)
            await analytics.shutdown()
        }

        // MARK: Through the client and the SDK

        @Test func throughTheClientCutStringsAreReportedAndDelivered() async {
            let analytics = AnalyticsClient(destinations: [destination])
            analytics.track("ordered", ["note": .string(Self.long)])
            await analytics.flush()
            #expect(spy.calls == [.track(eventType: "ordered", eventProperties: ["note": Self.cut])])
            let diagnostics = analytics.diagnostics
            #expect(diagnostics.destinations["amplitude"]?.delivered == 1)
            #expect(diagnostics.destinations["amplitude"]?.dropped == [:])
            #expect(diagnostics.recentProblems.count == 1)
            #expect(diagnostics.recentProblems.first?.code == .vendorLimit)
            #expect(diagnostics.recentProblems.first?.destination == "amplitude")
            #expect(diagnostics.recentProblems.first?.path == "/properties/note")
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
