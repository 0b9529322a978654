#if SpyMacro
import Foundation
import Tally
import TallySpy
import Testing

/// A stand-in for `FirebaseAnalytics.Analytics`: class methods with Firebase's exact names, in a
/// namespace, with Firebase's own type name `Analytics`.
enum FakeFirebaseAnalytics {
    /// Counts calls from any thread.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var stored = 0
        var count: Int { lock.withLock { stored } }
        func increment() { lock.withLock { stored += 1 } }
    }

    final class Analytics: NSObject {
        static let recorder = FirebaseSpy()
        /// Calls to `resetAnalyticsData()`, which the destination must never make.
        static let fullResets = Counter()

        class func logEvent(_ name: String, parameters: [String: Any]?) {
            recorder.logEvent(name, parameters: parameters)
        }

        class func setUserID(_ userID: String?) { recorder.setUserID(userID) }

        class func setUserProperty(_ value: String?, forName name: String) {
            recorder.setUserProperty(value, forName: name)
        }

        /// Firebase's fuller reset, which clears the device's analytics data and the app instance id.
        class func resetAnalyticsData() { fullResets.increment() }
    }
}

// The conformance an app writes: empty.
extension FakeFirebaseAnalytics.Analytics: FirebaseAnalyticsStaticAPI {}

extension Vendors {
    @Suite struct FirebaseDestinationTests {
        let spy = FirebaseSpy()
        var destination: FirebaseDestination { FirebaseDestination(adapter: spy) }

        // MARK: Kinds

        @Test func trackLogsTheEventWithItsParameters() {
            let event = Event("menu_item_ordered", ["item_name": "Pizza", "price": 9.5, "quantity": 2])
            let delivery = deliver(event, to: destination)
            #expect(delivery.problems.isEmpty)
            #expect(delivery.thrown == nil)
            spy.expectExactly([
                .logEvent("menu_item_ordered", parameters: ["item_name": "Pizza", "price": 9.5, "quantity": 2])
            ])
        }

        @Test func trackWithoutPropertiesPassesNilParameters() {
            let delivery = deliver(Event("app_opened"), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([.logEvent("app_opened", parameters: nil)])
        }

        @Test func screenLogsScreenView() {
            let delivery = deliver(.screen("Menu", ["section": "pizza"]), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([.logEvent("screen_view", parameters: ["screen_name": "Menu", "section": "pizza"])])
        }

        @Test func screenNameWinsOverAScreenNameProperty() {
            let event = Event.screen("Menu", ["screen_name": "Other"])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.logEvent("screen_view", parameters: ["screen_name": "Menu"])])
            #expect(delivery.problems.count == 1)
            expectVendorProblem(
                delivery.problems.first, destination: "firebase", event: event, path: "/properties/screen_name",
                mentioning: "replaced")
        }

        @Test func aScreenNamePropertyEqualToTheNameIsNoProblem() {
            let delivery = deliver(.screen("Menu", ["screen_name": "Menu"]), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([.logEvent("screen_view", parameters: ["screen_name": "Menu"])])
        }

        @Test func identifySetsTheUserIDThenEachTraitInNameOrder() {
            let event = Event.identify(
                userId: "user-42", traits: ["plan": "pro", "age": 42, "score": 9.5, "beta": true, "nickname": nil])
            let delivery = deliver(event, to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([
                .setUserID("user-42"),
                .setUserProperty("42", forName: "age"),
                .setUserProperty("true", forName: "beta"),
                .setUserProperty(nil, forName: "nickname"),
                .setUserProperty("pro", forName: "plan"),
                .setUserProperty("9.5", forName: "score"),
            ])
        }

        @Test func groupLogsJoinGroup() {
            let delivery = deliver(.group("acme", traits: ["seats": 10]), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([.logEvent("join_group", parameters: ["group_id": "acme", "seats": 10])])
        }

        @Test func aliasSetsTheNewUserID() {
            let delivery = deliver(.alias("user-43"), to: destination, userId: "user-42")
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([.setUserID("user-43")])
        }

        // MARK: Event names

        struct NameCase: Sendable, CustomTestStringConvertible {
            var input: String
            var sent: String
            var fragments: [String]
            var testDescription: String { "\"\(input.prefix(20))\" -> \"\(sent.prefix(20))\"" }
        }

        static let nameCases: [NameCase] = [
            NameCase(input: "menu item-ordered", sent: "menu_item_ordered", fragments: ["only contain letters"]),
            NameCase(input: "café", sent: "caf_", fragments: ["only contain letters"]),
            NameCase(input: "1st_launch", sent: "x_1st_launch", fragments: ["must start with a letter"]),
            NameCase(input: "_private", sent: "x__private", fragments: ["must start with a letter"]),
            NameCase(
                input: "2 much", sent: "x_2_much", fragments: ["only contain letters", "must start with a letter"]),
            NameCase(
                input: "firebase_thing", sent: "x_firebase_thing", fragments: ["reserves the prefix \"firebase_\""]),
            NameCase(input: "Google_pay", sent: "x_Google_pay", fragments: ["reserves the prefix \"google_\""]),
            NameCase(input: "ga_session", sent: "x_ga_session", fragments: ["reserves the prefix \"ga_\""]),
            NameCase(input: "error", sent: "x_error", fragments: ["reserves the event name \"error\""]),
            NameCase(input: "session_start", sent: "x_session_start", fragments: ["reserves the event name"]),
            NameCase(
                input: String(repeating: "a", count: 41), sent: String(repeating: "a", count: 40),
                fragments: ["at most 40 characters"]),
            NameCase(
                input: "an event " + String(repeating: "b", count: 40),
                sent: "an_event_" + String(repeating: "b", count: 31),
                fragments: ["only contain letters", "at most 40 characters"]),
            NameCase(
                input: "ga_" + String(repeating: "c", count: 37), sent: "x_ga_" + String(repeating: "c", count: 35),
                fragments: ["reserves the prefix", "at most 40 characters"]),
        ]

        @Test(arguments: nameCases)
        func eventNamesAreMadeValid(_ rule: NameCase) {
            let event = Event(rule.input, ["item_name": "Pizza"])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.logEvent(rule.sent, parameters: ["item_name": "Pizza"])])
            #expect(delivery.problems.count == rule.fragments.count)
            for (problem, fragment) in zip(delivery.problems, rule.fragments) {
                expectVendorProblem(problem, destination: "firebase", event: event, path: "/name", mentioning: fragment)
            }
        }

        @Test(arguments: ["menu_item_ordered", "a", String(repeating: "a", count: 40), "screen_view", "Error", "gab_x"])
        func validEventNamesAreSentAsTheyAre(_ name: String) {
            let delivery = deliver(Event(name), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([.logEvent(name, parameters: nil)])
        }

        // MARK: Parameters

        @Test(arguments: nameCases.filter { $0.fragments.allSatisfy { !$0.contains("event name") } })
        func parameterNamesFollowTheSameRules(_ rule: NameCase) {
            let event = Event("ordered", [rule.input: "Pizza"])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.logEvent("ordered", parameters: [rule.sent: "Pizza"])])
            #expect(delivery.problems.count == rule.fragments.count)
            for (problem, fragment) in zip(delivery.problems, rule.fragments) {
                expectVendorProblem(
                    problem, destination: "firebase", event: event, path: "/properties/\(rule.input)",
                    mentioning: fragment.replacingOccurrences(of: "event name", with: "parameter name"))
            }
        }

        /// The reserved event names of `FIRAnalytics.h` (FirebaseAnalytics 12, Firebase Apple SDK 12.18.0),
        /// copied by hand from its `logEventWithName:parameters:` documentation.
        static let headerReservedEventNames = [
            "ad_activeview", "ad_click", "ad_exposure", "ad_query", "ad_reward", "adunit_exposure", "app_background",
            "app_clear_data", "app_exception", "app_remove", "app_store_refund", "app_store_subscription_cancel",
            "app_store_subscription_convert", "app_store_subscription_renew", "app_update", "app_upgrade",
            "dynamic_link_app_open", "dynamic_link_app_update", "dynamic_link_first_open", "error",
            "firebase_campaign", "first_open", "first_visit", "in_app_purchase", "notification_dismiss",
            "notification_foreground", "notification_open", "notification_receive", "os_update", "session_start",
            "session_start_with_rollout", "user_engagement",
        ]

        @Test func theReservedEventNamesAreExactlyTheHeaders() {
            #expect(FirebaseLimits.documentedReservedEventNames == Set(Self.headerReservedEventNames))
            #expect(FirebaseLimits.default.reservedEventNames.count == 32)
        }

        @Test(arguments: headerReservedEventNames)
        func everyReservedEventNameOfTheHeaderIsRenamed(_ name: String) {
            let event = Event(name)
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.logEvent("x_" + name, parameters: nil)])
            #expect(delivery.problems.count == 1)
            if let problem = delivery.problems.first {
                // firebase_campaign is caught by the reserved prefix first.
                let fragment = name.hasPrefix("firebase_") ? "reserves the prefix" : "reserves the event name"
                expectVendorProblem(problem, destination: "firebase", event: event, path: "/name", mentioning: fragment)
            }
        }

        @Test func appBackgroundIsReservedAndScreenViewIsNot() {
            let delivery = deliver(Event("app_background"), to: destination)
            #expect(delivery.problems.count == 1)
            let screenView = deliver(Event("screen_view"), to: destination)
            #expect(screenView.problems.isEmpty)
            spy.expectExactly([
                .logEvent("x_app_background", parameters: nil), .logEvent("screen_view", parameters: nil),
            ])
        }

        @Test(arguments: ["first_open_time", "last_deep_link_referrer", "user_id"])
        func everyReservedUserPropertyNameOfTheHeaderIsRenamed(_ name: String) {
            let delivery = deliver(Event.identify(userId: "user-42", traits: [name: "x"]), to: destination)
            // x_last_deep_link_referrer is then over 24 characters, and cut: a second problem.
            let sent = String(("x_" + name).prefix(24))
            #expect(delivery.problems.count == (sent.count < name.count + 2 ? 2 : 1))
            #expect(delivery.problems.first?.message.contains("reserves the user property name") == true)
            spy.expectExactly([.setUserID("user-42"), .setUserProperty("x", forName: sent)])
        }

        @Test func reservedEventNamesDoNotApplyToParameters() {
            let delivery = deliver(Event("ordered", ["error": "none"]), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([.logEvent("ordered", parameters: ["error": "none"])])
        }

        @Test func aRenamedParameterNeverOverwritesAValidOne() {
            let event = Event("ordered", ["item name": "renamed", "item_name": "valid"])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.logEvent("ordered", parameters: ["item_name": "valid"])])
            #expect(delivery.problems.count == 1)
            expectVendorProblem(
                delivery.problems.first, destination: "firebase", event: event, path: "/properties/item name",
                mentioning: "which another one already has; it was removed")
        }

        @Test func amongRenamedParametersTheFirstKeyInSortedOrderWins() {
            let event = Event("ordered", ["a-b": 2, "a b": 1])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.logEvent("ordered", parameters: ["a_b": 1])])
            #expect(delivery.problems.count == 2)
            expectVendorProblem(
                delivery.problems.first, destination: "firebase", event: event, path: "/properties/a b",
                mentioning: "only contain letters")
            expectVendorProblem(
                delivery.problems.last, destination: "firebase", event: event, path: "/properties/a-b",
                mentioning: "already has")
        }

        static let nonScalars: [(String, PropertyValue)] = [
            ("nothing", .null), ("tags", ["a", "b"]), ("address", ["city": "Rome"]),
        ]

        @Test(arguments: nonScalars)
        func nonScalarParametersAreRemoved(_ key: String, _ value: PropertyValue) {
            let event = Event("ordered", [key: value, "item_name": "Pizza"])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.logEvent("ordered", parameters: ["item_name": "Pizza"])])
            #expect(delivery.problems.count == 1)
            expectVendorProblem(
                delivery.problems.first, destination: "firebase", event: event, path: "/properties/\(key)",
                mentioning: "a \(value.typeName) was removed")
        }

        @Test func booleansAreSentAsIntegersWithoutAProblem() {
            let delivery = deliver(Event("ordered", ["gift": true, "paid": false]), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([.logEvent("ordered", parameters: ["gift": 1, "paid": 0])])
        }

        struct StringCase: Sendable {
            var input: String
            var sent: String
        }

        static let stringCases: [StringCase] = [
            StringCase(input: String(repeating: "x", count: 101), sent: String(repeating: "x", count: 100)),
            StringCase(input: String(repeating: "é", count: 150), sent: String(repeating: "é", count: 100)),
            // An emoji is two UTF-16 units, as Firebase counts: 60 of them are 120 units, cut to 50 whole ones.
            StringCase(input: String(repeating: "😀", count: 60), sent: String(repeating: "😀", count: 50)),
            StringCase(input: String(repeating: "x", count: 99) + "😀", sent: String(repeating: "x", count: 99)),
        ]

        @Test(arguments: stringCases)
        func longStringValuesAreCutAtACharacterBoundary(_ rule: StringCase) {
            let event = Event("ordered", ["note": .string(rule.input)])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.logEvent("ordered", parameters: ["note": rule.sent])])
            #expect(delivery.problems.count == 1)
            expectVendorProblem(
                delivery.problems.first, destination: "firebase", event: event, path: "/properties/note",
                mentioning: "at most 100 characters")
        }

        @Test func aStringOfExactly100CharactersIsUntouched() {
            let text = PropertyValue.string(String(repeating: "x", count: 100))
            let delivery = deliver(Event("ordered", ["note": text]), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([.logEvent("ordered", parameters: ["note": text])])
        }

        @Test func aLongScreenNameIsCutWithAPathToTheName() {
            let event = Event.screen(String(repeating: "s", count: 120))
            let delivery = deliver(event, to: destination)
            spy.expectExactly([
                .logEvent("screen_view", parameters: ["screen_name": String(repeating: "s", count: 100)])
            ])
            #expect(delivery.problems.count == 1)
            expectVendorProblem(
                delivery.problems.first, destination: "firebase", event: event, path: "/name", mentioning: "at most 100"
            )
        }

        @Test func atMost25ParametersAreKeptInNameOrder() {
            let event = Event("ordered", numberedProperties(30))
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.logEvent("ordered", parameters: numberedProperties(25))])
            #expect(delivery.problems.count == 1)
            expectVendorProblem(
                delivery.problems.first, destination: "firebase", event: event, path: "/properties",
                mentioning:
                    "at most 25 parameters per event; 5 were removed, the last in name order: \"p25\", \"p26\", \"p27\", \"p28\", \"p29\""
            )
        }

        @Test func theScreenNameIsKeptWhenParametersAreTooMany() {
            let event = Event.screen("Menu", numberedProperties(30))
            let delivery = deliver(event, to: destination)
            var expected = numberedProperties(24)
            expected["screen_name"] = "Menu"
            spy.expectExactly([.logEvent("screen_view", parameters: expected)])
            #expect(delivery.problems.count == 1)
            expectVendorProblem(
                delivery.problems.first, destination: "firebase", event: event, path: "/properties",
                mentioning:
                    "6 were removed, the last in name order: \"p24\", \"p25\", \"p26\", \"p27\", \"p28\" and 1 more")
        }

        @Test func removedParametersDoNotCountTowardsTheLimit() {
            var properties = numberedProperties(25)
            properties["zz"] = .null
            properties["zzz"] = ["a"]
            let event = Event("ordered", properties)
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.logEvent("ordered", parameters: numberedProperties(25))])
            #expect(delivery.problems.map(\.path) == ["/properties/zz", "/properties/zzz"])
        }

        @Test func itemsFollowTheParameterRulesPerItem() {
            let event = Event(
                "purchase",
                [
                    "items": [
                        ["item name": "Pizza", "price": 9.5, "tags": ["hot"]],
                        ["item_id": "sku-1", "vegan": true],
                    ],
                    "value": 12.5,
                ])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([
                .logEvent(
                    "purchase",
                    parameters: [
                        "items": [["item_name": "Pizza", "price": 9.5], ["item_id": "sku-1", "vegan": 1]],
                        "value": 12.5,
                    ])
            ])
            #expect(delivery.problems.count == 2)
            expectVendorProblem(
                delivery.problems.first, destination: "firebase", event: event, path: "/properties/items/0/item name",
                mentioning: "only contain letters")
            expectVendorProblem(
                delivery.problems.last, destination: "firebase", event: event, path: "/properties/items/0/tags",
                mentioning: "a array was removed")
        }

        @Test func itemsThatAreNotObjectsAreRemovedLikeAnyArray() {
            let event = Event("purchase", ["items": ["Pizza"]])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.logEvent("purchase", parameters: nil)])
            #expect(delivery.problems.map(\.path) == ["/properties/items"])
        }

        // MARK: User id and user properties

        @Test func aUserIDLongerThan256CharactersDropsTheIdentifyEvent() {
            let event = Event.identify(userId: String(repeating: "u", count: 257), traits: ["plan": "pro"])
            let delivery = deliver(event, to: destination)
            #expect(spy.calls.isEmpty)
            #expect(delivery.problems.isEmpty)
            expectVendorProblem(
                delivery.thrown, destination: "firebase", event: event, path: "/userId", outcome: .dropped,
                mentioning: "at most 256 characters")
        }

        @Test func aNewIDLongerThan256CharactersDropsTheAliasEvent() {
            let event = Event.alias(String(repeating: "u", count: 257))
            let delivery = deliver(event, to: destination)
            #expect(spy.calls.isEmpty)
            expectVendorProblem(
                delivery.thrown, destination: "firebase", event: event, path: "/userId", outcome: .dropped,
                mentioning: "at most 256 characters")
        }

        @Test func aUserIDOf256CharactersIsSent() {
            let id = String(repeating: "u", count: 256)
            let delivery = deliver(.identify(userId: id), to: destination)
            #expect(delivery.thrown == nil)
            spy.expectExactly([.setUserID(id)])
        }

        struct UserPropertyCase: Sendable, CustomTestStringConvertible {
            var key: String
            var value: PropertyValue
            var sent: FirebaseSpy.Call?
            var fragments: [String]
            var testDescription: String { key }
        }

        static let userPropertyCases: [UserPropertyCase] = [
            UserPropertyCase(
                key: "favourite topping", value: "basil", sent: .setUserProperty("basil", forName: "favourite_topping"),
                fragments: ["only contain letters"]),
            UserPropertyCase(
                key: String(repeating: "n", count: 25), value: "x",
                sent: .setUserProperty("x", forName: String(repeating: "n", count: 24)),
                fragments: ["at most 24 characters"]),
            UserPropertyCase(
                key: "user_id", value: "x", sent: .setUserProperty("x", forName: "x_user_id"),
                fragments: ["reserves the user property name \"user_id\""]),
            UserPropertyCase(
                key: "google_ads", value: "x", sent: .setUserProperty("x", forName: "x_google_ads"),
                fragments: ["reserves the prefix"]),
            UserPropertyCase(
                key: "plan", value: .string(String(repeating: "v", count: 37)),
                sent: .setUserProperty(String(repeating: "v", count: 36), forName: "plan"),
                fragments: ["at most 36 characters"]),
            UserPropertyCase(key: "toppings", value: ["basil"], sent: nil, fragments: ["a array was not sent"]),
            UserPropertyCase(key: "address", value: ["city": "Rome"], sent: nil, fragments: ["a object was not sent"]),
        ]

        @Test(arguments: userPropertyCases)
        func userPropertiesAreMadeValid(_ rule: UserPropertyCase) {
            let event = Event.identify(userId: "user-42", traits: [rule.key: rule.value])
            let delivery = deliver(event, to: destination)
            spy.expectExactly([.setUserID("user-42")] + (rule.sent.map { [$0] } ?? []))
            #expect(delivery.problems.count == rule.fragments.count)
            for (problem, fragment) in zip(delivery.problems, rule.fragments) {
                expectVendorProblem(
                    problem, destination: "firebase", event: event, path: "/traits/\(rule.key)",
                    mentioning: fragment)
            }
        }

        // MARK: Limits

        @Test func limitsCanBeRaisedForAnalytics360() {
            let spy = FirebaseSpy()
            let destination = FirebaseDestination(
                adapter: spy, limits: FirebaseLimits(maximumParameterValueLength: 500))
            let text = PropertyValue.string(String(repeating: "x", count: 500))
            let delivery = deliver(Event("ordered", ["note": text]), to: destination)
            #expect(delivery.problems.isEmpty)
            spy.expectExactly([.logEvent("ordered", parameters: ["note": text])])
        }

        // MARK: Reset

        @Test func resetClearsTheUserID() {
            destination.reset()
            spy.expectExactly([.setUserID(nil)])
        }

        @Test func throughTheClientResetComesBetweenTheEventsBeforeAndAfterIt() async {
            let analytics = AnalyticsClient(destinations: [destination])
            analytics.identify(userId: "user-42", traits: ["plan": "pro"])
            analytics.reset()
            analytics.track("browsing")
            await analytics.flush()
            spy.expectExactly([
                .setUserID("user-42"),
                .setUserProperty("pro", forName: "plan"),
                .setUserID(nil),
                .logEvent("browsing", parameters: nil),
            ])
            #expect(analytics.statistics.destinations["firebase"]?.delivered == 2)
            await analytics.shutdown()
        }

        // MARK: Through the client

        @Test func throughTheClientProblemsAndDropsAreCounted() async {
            // The client's own limit on names (which are user ids for identify) is 256 too; raise it so
            // that Firebase's limit is the one that applies.
            let analytics = AnalyticsClient(
                destinations: [destination],
                configuration: AnalyticsClient.Configuration(inputLimits: InputLimits(maximumNameBytes: 1000)))
            analytics.track("menu item-ordered", ["item_name": "Pizza"])
            analytics.identify(userId: String(repeating: "u", count: 300))
            analytics.screen("Menu")
            await analytics.flush()

            spy.expectExactly([
                .logEvent("menu_item_ordered", parameters: ["item_name": "Pizza"]),
                .logEvent("screen_view", parameters: ["screen_name": "Menu"]),
            ])
            let statistics = analytics.statistics
            #expect(statistics.tracked == 3)
            #expect(statistics.destinations["firebase"]?.delivered == 2)
            #expect(statistics.destinations["firebase"]?.dropped == [.rejected: 1])
            let problems = statistics.recentProblems
            #expect(problems.count == 2)
            #expect(problems.allSatisfy { $0.code == .vendorLimit && $0.destination == "firebase" })
            #expect(problems.map(\.outcome) == [.sanitized, .dropped])
            #expect(problems.map(\.path) == ["/name", "/userId"])
            await analytics.shutdown()
        }

        @Test func theStaticAPIPathCallsTheClassMethods() async {
            let analytics = AnalyticsClient(destinations: [
                FirebaseDestination(sdk: FakeFirebaseAnalytics.Analytics.self)
            ])
            analytics.track("static path", ["n": 1])
            analytics.identify(userId: "user-7", traits: ["plan": "pro"])
            analytics.reset()
            analytics.track("browsing")
            await analytics.flush()
            FakeFirebaseAnalytics.Analytics.recorder.expectExactly([
                .logEvent("static_path", parameters: ["n": 1]),
                .setUserID("user-7"),
                .setUserProperty("pro", forName: "plan"),
                .setUserID(nil),
                .logEvent("browsing", parameters: nil),
            ])
            // The reset clears the user id only; the fuller reset is the app's decision.
            #expect(FakeFirebaseAnalytics.Analytics.fullResets.count == 0)
            #expect(analytics.destinationNames == ["firebase"])
            await analytics.shutdown()
        }
    }
}
#endif
