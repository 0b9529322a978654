#if SpyMacro
import Foundation
import Tally
import TallySpy
import Testing

/// A stand-in for the Mixpanel SDK with its exact signatures: `MixpanelType`, `Properties`, default
/// arguments, `people` and `getGroup`. It records what reaches the SDK's own methods.
enum FakeMixpanel {
    protocol MixpanelType {}

    final class MixpanelInstance {
        // Mixpanel declares these at module level; here they are members so that the documented
        // forward below compiles word for word, as it does in an app.
        typealias MixpanelType = FakeMixpanel.MixpanelType
        typealias Properties = [String: any MixpanelType]

        let people = People()
        private let lock = NSLock()
        private var recorded: [String] = []
        var sdkCalls: [String] { lock.withLock { recorded } }

        func record(_ call: String) { lock.withLock { recorded.append(call) } }

        func track(event: String?, properties: Properties? = nil) {
            record("track \(event ?? "nil") \(properties.map { $0.keys.sorted() } ?? [])")
        }

        func identify(distinctId: String, usePeople: Bool = true, completion: (() -> Void)? = nil) {
            record("identify \(distinctId) \(usePeople)")
        }

        func createAlias(
            _ alias: String, distinctId: String, usePeople: Bool = true, andIdentify: Bool = true,
            completion: (() -> Void)? = nil
        ) {
            record("createAlias \(alias) \(distinctId)")
        }

        func setGroup(groupKey: String, groupID: any MixpanelType) { record("setGroup \(groupKey) \(groupID)") }

        func reset(completion: (() -> Void)? = nil) { record("reset") }

        func getGroup(groupKey: String, groupID: any MixpanelType) -> Group {
            Group(instance: self, name: "\(groupKey)=\(groupID)")
        }

        final class People {
            weak var instance: MixpanelInstance?
            func set(properties: Properties) { instance?.record("people.set \(properties.keys.sorted())") }
        }

        final class Group {
            let instance: MixpanelInstance
            let name: String
            init(instance: MixpanelInstance, name: String) {
                self.instance = instance
                self.name = name
            }
            func set(properties: Properties) { instance.record("group \(name).set \(properties.keys.sorted())") }
        }

        init() { people.instance = self }
    }
}

extension String: FakeMixpanel.MixpanelType {}
extension Int: FakeMixpanel.MixpanelType {}
extension Double: FakeMixpanel.MixpanelType {}
extension Bool: FakeMixpanel.MixpanelType {}
extension NSNull: FakeMixpanel.MixpanelType {}
extension Array: FakeMixpanel.MixpanelType {}
extension Dictionary: FakeMixpanel.MixpanelType {}

// The conformance the MixpanelAdapter documentation tells an app to write, word for word.
extension FakeMixpanel.MixpanelInstance: MixpanelAdapter {
    public func track(event: String?, properties: [String: Any]?) {
        track(event: event, properties: properties.map(Self.mixpanelProperties))
    }
    public func setGroup(groupKey: String, groupID: String) {
        setGroup(groupKey: groupKey, groupID: groupID as any MixpanelType)
    }
    public func peopleSet(properties: [String: Any]) {
        people.set(properties: Self.mixpanelProperties(properties))
    }
    public func groupSet(groupKey: String, groupID: String, properties: [String: Any]) {
        getGroup(groupKey: groupKey, groupID: groupID).set(properties: Self.mixpanelProperties(properties))
    }
    static func mixpanelProperties(_ properties: [String: Any]) -> Properties {
        properties.compactMapValues { $0 as? any MixpanelType }
    }
}

extension Vendors {
    @Suite struct MixpanelDestinationTests {
        let spy = MixpanelSpy()
        var destination: MixpanelDestination { MixpanelDestination(adapter: spy) }

        // MARK: Kinds

        @Test func trackTracksTheEventWithItsProperties() {
            let delivery = deliver(
                Event("menu_item_ordered", ["item_name": "Pizza", "toppings": ["basil"]]), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([
                .track(event: "menu_item_ordered", properties: ["item_name": "Pizza", "toppings": ["basil"]])
            ])
        }

        @Test func trackWithoutPropertiesPassesNil() {
            _ = deliver(Event("app_opened"), to: destination)
            spy.expectExactly([.track(event: "app_opened", properties: nil)])
        }

        @Test func screenTracksLoadedAScreen() {
            let delivery = deliver(.screen("Menu", ["section": "pizza"]), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([.track(event: "Loaded a Screen", properties: ["name": "Menu", "section": "pizza"])])
        }

        @Test func theScreenNameWinsOverANameProperty() {
            let event = Event.screen("Menu", ["name": "Other"])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.track(event: "Loaded a Screen", properties: ["name": "Menu"])])
            #expect(delivery.problems.count == 1)
            expectVendorProblem(
                delivery.problems.first, destination: "mixpanel", event: event, path: "/properties/name",
                mentioning: "replaced")
        }

        @Test func identifyIdentifiesThenSetsTheTraitsOnTheProfile() {
            let delivery = deliver(.identify(userId: "user-42", traits: ["plan": "pro", "seats": 3]), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([
                .identify(distinctId: "user-42", usePeople: true, completion: nil),
                .peopleSet(properties: ["plan": "pro", "seats": 3]),
            ])
        }

        @Test func identifyWithoutTraitsOnlyIdentifies() {
            _ = deliver(.identify(userId: "user-42"), to: destination)
            spy.expectExactly([.identify(distinctId: "user-42", usePeople: true, completion: nil)])
        }

        @Test func groupSetsTheGroupThenItsProfile() {
            _ = deliver(.group("acme", traits: ["seats": 10]), to: destination)
            spy.expectExactly([
                .setGroup(groupKey: "group_id", groupID: "acme"),
                .groupSet(groupKey: "group_id", groupID: "acme", properties: ["seats": 10]),
            ])
        }

        @Test func theGroupKeyIsConfigurable() {
            _ = deliver(.group("acme"), to: MixpanelDestination(adapter: spy, groupKey: "company"))
            spy.expectExactly([.setGroup(groupKey: "company", groupID: "acme")])
        }

        @Test func aliasMapsTheNewIdToThePreviousOne() {
            _ = deliver(.alias("user-43"), to: destination, userId: "user-42")
            spy.expectExactly([
                .createAlias(
                    "user-43", distinctId: "user-42", usePeople: true, andIdentify: true, completion: nil)
            ])
        }

        @Test func aliasOfAnAnonymousUserUsesTheAnonymousId() {
            _ = deliver(.alias("user-43"), to: destination)
            spy.expectExactly([
                .createAlias(
                    "user-43", distinctId: "anon-1", usePeople: true, andIdentify: true, completion: nil)
            ])
        }

        @Test func anAliasToTheCurrentIdIsDropped() {
            let event = Event.alias("user-42")
            let delivery = deliver(event, to: destination, userId: "user-42")
            #expect(spy.calls.isEmpty)
            #expect(delivery.problems.isEmpty)
            expectVendorProblem(
                delivery.thrown, destination: "mixpanel", event: event, path: "/userId", outcome: .dropped,
                mentioning: "already the current distinct id")
        }

        // MARK: Property count

        @Test(arguments: [(254, 0), (255, 1), (300, 46)])
        func fewerThan255PropertiesAreKeptInKeyOrder(_ count: Int, _ removed: Int) {
            let event = Event("ordered", numberedPropertiesWithWideKeys(count))
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.track(event: "ordered", properties: numberedPropertiesWithWideKeys(min(count, 254)))])
            #expect(delivery.problems.count == (removed > 0 ? 1 : 0))
            if removed > 0 {
                expectVendorProblem(
                    delivery.problems.first, destination: "mixpanel", event: event, path: "/properties",
                    mentioning:
                        "fewer than 255 properties per event; \(removed) were removed, the last in key order: \"p254\"")
            }
        }

        @Test func theScreenNameIsKeptWhenPropertiesAreTooMany() {
            let event = Event.screen("Menu", numberedPropertiesWithWideKeys(300))
            let delivery = deliver(event, to: destination)
            var expected = numberedPropertiesWithWideKeys(253)
            expected["name"] = "Menu"
            spy.expectExactly([.track(event: "Loaded a Screen", properties: expected)])
            #expect(delivery.problems.map(\.path) == ["/properties"])
        }

        @Test func traitsAreNotLimitedLikeEventProperties() {
            let traits = numberedPropertiesWithWideKeys(300)
            let delivery = deliver(.identify(userId: "user-42", traits: traits), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectCalled(.peopleSet(properties: traits))
        }

        // MARK: Reset

        @Test func resetCallsMixpanelsResetWithoutACompletion() {
            destination.reset()
            spy.expectExactly([.reset(completion: nil)])
        }

        @Test func throughTheClientResetComesBetweenTheEventsBeforeAndAfterIt() async {
            let analytics = AnalyticsClient(destinations: [destination])
            analytics.identify(userId: "user-42", traits: ["plan": "pro"])
            analytics.reset()
            analytics.track("browsing")
            await analytics.flush()
            spy.expectExactly([
                .identify(distinctId: "user-42", usePeople: true, completion: nil),
                .peopleSet(properties: ["plan": "pro"]),
                .reset(completion: nil),
                .track(event: "browsing", properties: nil),
            ])
            #expect(analytics.diagnostics.destinations["mixpanel"]?.delivered == 2)
            await analytics.shutdown()
        }

        // MARK: Through the client and the SDK

        @Test func throughTheClientProblemsAndDropsAreCounted() async {
            let analytics = AnalyticsClient(destinations: [destination])
            analytics.track("ordered", numberedPropertiesWithWideKeys(260))
            analytics.identify(userId: "user-42")
            analytics.alias("user-42")
            await analytics.flush()

            spy.expectExactly([
                .track(event: "ordered", properties: numberedPropertiesWithWideKeys(254)),
                .identify(distinctId: "user-42", usePeople: true, completion: nil),
            ])
            let diagnostics = analytics.diagnostics
            #expect(diagnostics.destinations["mixpanel"]?.delivered == 2)
            #expect(diagnostics.destinations["mixpanel"]?.dropped == [.rejected: 1])
            #expect(diagnostics.recentProblems.map(\.code) == [.vendorLimit, .vendorLimit])
            #expect(diagnostics.recentProblems.map(\.outcome) == [.sanitized, .dropped])
            #expect(diagnostics.recentProblems.map(\.destination) == ["mixpanel", "mixpanel"])
            await analytics.shutdown()
        }

        @Test func theDocumentedForwardsReachTheSDKsOwnMethods() async {
            let sdk = FakeMixpanel.MixpanelInstance()
            let analytics = AnalyticsClient(destinations: [MixpanelDestination(adapter: sdk)])
            analytics.track("ordered", ["item_name": "Pizza", "price": 9.5])
            analytics.identify(userId: "user-42", traits: ["plan": "pro"])
            analytics.group("acme", traits: ["seats": 3])
            analytics.alias("user-43")
            await analytics.flush()
            #expect(
                sdk.sdkCalls == [
                    "track ordered [\"item_name\", \"price\"]",
                    "identify user-42 true",
                    "people.set [\"plan\"]",
                    "setGroup group_id acme",
                    "group group_id=acme.set [\"seats\"]",
                    "createAlias user-43 user-42",
                ])
            await analytics.shutdown()
        }

        @Test func theSDKsOwnResetMeetsTheRequirementWithoutAForward() async {
            let sdk = FakeMixpanel.MixpanelInstance()
            let analytics = AnalyticsClient(destinations: [MixpanelDestination(adapter: sdk)])
            analytics.identify(userId: "user-42")
            analytics.reset()
            analytics.track("browsing")
            await analytics.flush()
            #expect(sdk.sdkCalls == ["identify user-42 true", "reset", "track browsing []"])
            await analytics.shutdown()
        }
    }
}

/// `count` properties `p000`, `p001`… so that key order is numeric order.
func numberedPropertiesWithWideKeys(_ count: Int) -> [String: PropertyValue] {
    Dictionary(uniqueKeysWithValues: (0..<count).map { (String(format: "p%03d", $0), PropertyValue.int($0)) })
}
#endif
