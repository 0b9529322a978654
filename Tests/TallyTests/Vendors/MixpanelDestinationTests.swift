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

        /// Mixpanel's `open var distinctId = ""`.
        var distinctId = ""
        let people = People()
        private let lock = NSLock()
        private var recorded: [String] = []
        var sdkCalls: [String] { lock.withLock { recorded } }

        func record(_ call: String) { lock.withLock { recorded.append(call) } }

        func track(event: String?, properties: Properties? = nil) {
            lock.withLock { lastProperties = properties }
            record("track \(event ?? "nil") \(properties.map { $0.keys.sorted() } ?? [])")
        }

        func identify(distinctId: String, usePeople: Bool = true, completion: (() -> Void)? = nil) {
            self.distinctId = distinctId  // as Mixpanel's identify does
            record("identify \(distinctId) \(usePeople)")
        }

        func createAlias(
            _ alias: String, distinctId: String, usePeople: Bool = true, andIdentify: Bool = true,
            completion: (() -> Void)? = nil
        ) {
            record("createAlias \(alias) \(distinctId)")
        }

        /// What the last track call received, as Mixpanel's own typed properties.
        private(set) var lastProperties: Properties?

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

        @Test func aliasMapsTheNewIdToMixpanelsCurrentDistinctId() {
            spy.stub(.distinctId, returning: "mp-device-7")
            let delivery = deliver(.alias("user-43"), to: destination, userId: "user-42")
            #expect(delivery.thrown == nil)
            spy.expectExactly([
                .createAlias(
                    "user-43", distinctId: "mp-device-7", usePeople: true, andIdentify: true, completion: nil)
            ])
        }

        @Test func aliasNeverPassesTallysOwnId() {
            // Tally's anonymous id is anon-1, its user id user-42; Mixpanel's is its own.
            spy.stub(.distinctId, returning: "$device:1234")
            _ = deliver(.alias("user-43"), to: destination)
            _ = deliver(.alias("user-44"), to: destination, userId: "user-42")
            spy.expectExactly([
                .createAlias(
                    "user-43", distinctId: "$device:1234", usePeople: true, andIdentify: true, completion: nil),
                .createAlias(
                    "user-44", distinctId: "$device:1234", usePeople: true, andIdentify: true, completion: nil),
            ])
        }

        @Test func anAliasToMixpanelsCurrentIdIsDropped() {
            spy.stub(.distinctId, returning: "user-42")
            let event = Event.alias("user-42")
            // Tally's id differs: only Mixpanel's own counts.
            let delivery = deliver(event, to: destination, userId: "someone-else")
            spy.expectExactly([])  // reading distinctId is not a call
            #expect(delivery.problems.isEmpty)
            expectVendorProblem(
                delivery.thrown, destination: "mixpanel", event: event, path: "/userId", outcome: .dropped,
                mentioning: "already the current distinct id")
        }

        @Test func anAliasToTallysIdIsSentWhenMixpanelsDiffers() {
            spy.stub(.distinctId, returning: "mp-device-7")
            let delivery = deliver(.alias("user-42"), to: destination, userId: "user-42")
            #expect(delivery.thrown == nil)
            spy.expectExactly([
                .createAlias(
                    "user-42", distinctId: "mp-device-7", usePeople: true, andIdentify: true, completion: nil)
            ])
        }

        @Test func theDocumentedConformanceAliasesWithTheSDKsDistinctId() {
            let sdk = FakeMixpanel.MixpanelInstance()
            sdk.distinctId = "mp-device-7"
            _ = deliver(.alias("user-43"), to: MixpanelDestination(adapter: sdk), userId: "user-42")
            #expect(sdk.sdkCalls == ["createAlias user-43 mp-device-7"])
        }

        // MARK: Big numbers

        static let big = PropertyValue.bigNumber(BigNumber("18446744073709551617")!)
        static let beyondDouble = PropertyValue.bigNumber(BigNumber("1e400")!)

        @Test func bigNumbersBecomeDoublesAtAnyDepthWithAProblemEach() {
            let event = Event(
                "ordered",
                ["total": Self.big, "list": [1, Self.beyondDouble, Self.big], "nested": ["inner": Self.big], "n": 2])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([
                .track(
                    event: "ordered",
                    properties: [
                        "total": 18446744073709551617.0, "list": [PropertyValue.int(1), 18446744073709551617.0],
                        "nested": ["inner": 18446744073709551617.0], "n": 2,
                    ])
            ])
            #expect(
                delivery.problems.map(\.path) == [
                    "/properties/list/1", "/properties/list/2", "/properties/nested/inner", "/properties/total",
                ])
            for problem in delivery.problems {
                #expect(problem.eventName == "ordered")
                #expect(problem.destination == "mixpanel")
            }
            #expect(
                delivery.problems[0].message.contains("\"1e400\" is beyond the largest double; the value was removed"))
            #expect(delivery.problems[1].message.contains("converted to the nearest double"))
        }

        @Test func bigNumberTraitsAreConvertedToo() {
            let event = Event.identify(userId: "user-42", traits: ["seats": Self.big])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([
                .identify(distinctId: "user-42", usePeople: true, completion: nil),
                .peopleSet(properties: ["seats": 18446744073709551617.0]),
            ])
            #expect(delivery.problems.map(\.path) == ["/traits/seats"])
        }

        @Test func throughTheDocumentedConformanceEveryValueHasAMixpanelType() throws {
            let sdk = FakeMixpanel.MixpanelInstance()
            let event = Event("ordered", ["total": Self.big, "list": [Self.big], "n": 2])
            _ = deliver(event, to: MixpanelDestination(adapter: sdk))
            let received = try #require(sdk.lastProperties)
            #expect(received.keys.sorted() == ["list", "n", "total"])
            #expect(received["total"] is Double)
            // Mixpanel's assertPropertyTypes asserts each array element is a MixpanelType.
            let list = try #require(received["list"] as? [Any])
            #expect(list.allSatisfy { $0 is any FakeMixpanel.MixpanelType })
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
            #expect(analytics.statistics.destinations["mixpanel"]?.delivered == 2)
            await analytics.shutdown()
        }

        // MARK: Through the client and the SDK

        @Test func throughTheClientProblemsAndDropsAreCounted() async {
            spy.stub(.distinctId, returning: "user-42")
            let analytics = AnalyticsClient(destinations: [destination])
            analytics.track("ordered", numberedPropertiesWithWideKeys(260))
            analytics.identify(userId: "user-42")
            analytics.alias("user-42")
            await analytics.flush()

            spy.expectExactly([
                .track(event: "ordered", properties: numberedPropertiesWithWideKeys(254)),
                .identify(distinctId: "user-42", usePeople: true, completion: nil),
            ])
            let statistics = analytics.statistics
            #expect(statistics.destinations["mixpanel"]?.delivered == 2)
            #expect(statistics.destinations["mixpanel"]?.dropped == [.rejected: 1])
            #expect(statistics.recentProblems.map(\.code) == [.vendorLimit, .vendorLimit])
            #expect(statistics.recentProblems.map(\.outcome) == [.sanitized, .dropped])
            #expect(statistics.recentProblems.map(\.destination) == ["mixpanel", "mixpanel"])
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
