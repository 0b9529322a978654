import Foundation
import Tally
import TallyTesting
import Testing

/// The bad-input table of ``InputLimits``, rule by rule, directly and through the client.
struct InputLimitsTests {
    let limits = InputLimits()

    /// The walk that finds whether anything needs work looks at the keys and the values in two loops (issue
    /// 39): one bad key or one bad value anywhere among 49 good properties of each kind is still found.
    @Test(arguments: ["bad\u{200B}key", "", "tab\tkey"])
    func oneBadKeyAmongManyGoodPropertiesIsRemoved(badKey: String) throws {
        var properties = Self.goodProperties()
        properties[badKey] = "value"
        let (event, problems) = limits.sanitize(Event("wide", properties))
        let kept = try #require(event)
        #expect(kept.properties.count == 49)
        #expect(kept.properties[badKey] == nil)
        #expect(problems.map(\.code) == [badKey.isEmpty ? .emptyPropertyKey : .invalidPropertyKey])
    }

    /// NaN, an infinity, a string over the limit (built in the test, so that its 64 KiB stay out of the log).
    @Test(arguments: 0..<3)
    func oneBadValueAmongManyGoodPropertiesIsSanitized(kind: Int) throws {
        let bad: [PropertyValue] = [.double(.nan), .double(-.infinity), .string(String(repeating: "x", count: 65_537))]
        let badValue = bad[kind]
        var properties = Self.goodProperties()
        properties["property_25"] = badValue
        let (event, problems) = limits.sanitize(Event("wide", properties))
        let kept = try #require(event)
        #expect(kept.properties.count == 49)
        #expect(problems.map(\.path) == ["/properties/property_25"])
        #expect(kept.properties["property_25"] != badValue)
    }

    /// 49 good properties of the five common kinds.
    private static func goodProperties() -> [String: PropertyValue] {
        var properties: [String: PropertyValue] = [:]
        for index in 0..<49 {
            let key = "property_\(index < 10 ? "0" : "")\(index)"
            let values: [PropertyValue] = ["Pizza", .int(index), 9.5, true, .object(["nested": "mains"])]
            properties[key] = values[index % 5]
        }
        return properties
    }

    @Test(arguments: ["", " ", "\n\t "])
    func emptyOrWhitespaceNamesAreDropped(name: String) throws {
        let (event, problems) = limits.sanitize(Event(name, ["a": 1]))
        #expect(event == nil)
        let problem = try #require(problems.only)
        #expect(problem.code == .emptyName)
        #expect(problem.outcome == .dropped)
    }

    @Test func namesOver256BytesAreDropped() throws {
        #expect(limits.sanitize(Event(String(repeating: "a", count: 256))).event != nil)
        // 'é' is two bytes in UTF-8: 128 of them fill the limit, 129 overflow it.
        #expect(limits.sanitize(Event(String(repeating: "é", count: 128))).event != nil)
        #expect(limits.sanitize(Event(String(repeating: "é", count: 129))).event == nil)
        let (event, problems) = limits.sanitize(Event(String(repeating: "a", count: 257)))
        #expect(event == nil)
        let problem = try #require(problems.only)
        #expect(problem.code == .nameTooLong)
        #expect(problem.message == "The event name has 257 UTF-8 bytes; at most 256 are allowed")
    }

    @Test func aOneCharacterNameOfAMegabyteIsDropped() throws {
        // One character: a base letter and a million combining acute accents (2 bytes each).
        let name = "e" + String(repeating: "\u{0301}", count: 500_000)
        #expect(name.count == 1)
        let (event, problems) = limits.sanitize(Event(name))
        #expect(event == nil)
        #expect(problems.map(\.code) == [.nameTooLong])
        #expect(problems.first?.message == "The event name has 1000001 UTF-8 bytes; at most 256 are allowed")
        // The problem names the event by a cut prefix, not by the whole megabyte.
        #expect((problems.first?.eventName?.utf8.count ?? .max) <= 67)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteNumbersBecomeNull(value: Double) throws {
        let (event, problems) = limits.sanitize(Event("e", ["x": .double(value), "ok": 1.5, "list": [.double(value)]]))
        #expect(event?.properties == ["x": nil, "ok": 1.5, "list": [nil]])
        #expect(problems.map(\.code) == [.nonFiniteNumber, .nonFiniteNumber])
        #expect(problems.map(\.path) == ["/properties/list/0", "/properties/x"])
        #expect(problems.allSatisfy { $0.outcome == .sanitized && $0.eventName == "e" })
    }

    @Test func stringsOver64KiBAreCutAtACharacterBoundary() throws {
        let exact = String(repeating: "a", count: 65_536)
        #expect(limits.sanitize(Event("e", ["s": .string(exact)])).problems.isEmpty)
        // 'é' is two bytes: 32,768 of them fill the limit exactly; one more ASCII byte overflows.
        let long = String(repeating: "é", count: 32_768) + "!"
        let (event, problems) = limits.sanitize(Event("e", ["s": .string(long)]))
        let cut = try #require(event?.properties["s"]?.stringValue)
        #expect(cut.utf8.count == 65_536)
        #expect(cut == String(repeating: "é", count: 32_768))
        #expect(problems.map(\.code) == [.stringTooLong])
        #expect(problems.first?.path == "/properties/s")
        // A multi-byte character straddling the limit is dropped whole.
        let straddling = "a" + String(repeating: "é", count: 32_768)
        let straddled = limits.sanitize(Event("e", ["s": .string(straddling)])).event?.properties["s"]?.stringValue
        #expect(straddled?.utf8.count == 65_535)
    }

    @Test func nestingDeeperThan32LevelsIsReplacedByNull() throws {
        func nested(_ depth: Int) -> PropertyValue {
            depth == 0 ? "leaf" : .array([nested(depth - 1)])
        }
        #expect(limits.sanitize(Event("e", ["ok": nested(32)])).problems.isEmpty)
        let (event, problems) = limits.sanitize(Event("e", ["deep": nested(33)]))
        let problem = try #require(problems.only)
        #expect(problem.code == .nestingTooDeep)
        #expect(problem.path == "/properties/deep" + String(repeating: "/0", count: 32))
        var value = try #require(event?.properties["deep"])
        for _ in 0..<32 { value = try #require(value.arrayValue?.first) }
        #expect(value == .null)
    }

    @Test func moreThan1000PropertiesKeepTheFirst1000InKeyOrder() throws {
        var properties: [String: PropertyValue] = [:]
        for index in 0..<1005 { properties[String(format: "p%04d", index)] = .int(index) }
        let (event, problems) = limits.sanitize(Event("e", properties))
        let kept = try #require(event?.properties)
        #expect(kept.count == 1000)
        #expect(kept["p0999"] == 999)
        #expect(kept["p1000"] == nil)
        let problem = try #require(problems.only)
        #expect(problem.code == .tooManyProperties)
        #expect(problem.message.contains("the 5 after the first 1000"))
    }

    @Test func emptyPropertyKeysAreRemoved() throws {
        let (event, problems) = limits.sanitize(Event("e", ["": 1, "a": 2]))
        #expect(event?.properties == ["a": 2])
        #expect(problems.map(\.code) == [.emptyPropertyKey])
    }

    @Test func pathsEscapeSlashesAndTildes() throws {
        let (_, problems) = limits.sanitize(Event("e", ["a/b~c": .double(.nan)]))
        #expect(problems.first?.path == "/properties/a~1b~0c")
    }

    @Test func cleanEventsComeBackUnchanged() {
        let event = Event("menu_item_ordered", ["item_name": "Pizza", "price": 9.5, "extras": ["basil"]])
        let result = limits.sanitize(event)
        #expect(result.event == event)
        #expect(result.problems.isEmpty)
    }

    @Test func theClientAppliesTheRulesAndReportsEachProblem() async throws {
        let memory = InMemoryDestination()
        let reported = LockedBox<[Problem]>([])
        let analytics = AnalyticsClient(
            destinations: [memory],
            configuration: .init(onProblem: { problem in reported.mutate { $0.append(problem) } }))
        analytics.track("", ["a": 1])
        analytics.track(String(repeating: "x", count: 300))
        analytics.track("ok", ["bad": .double(.nan)])
        analytics.track("nul\u{0}name")
        analytics.track("ok", ["zero\u{200B}width": 1])
        await analytics.flush()

        #expect(memory.events == [Event("ok", ["bad": nil]), Event("ok")])
        let statistics = analytics.statistics
        #expect(statistics.tracked == 5)
        #expect(statistics.dropped[.invalidEvent] == 3)
        #expect(statistics.delivered["memory"] == 2)
        #expect(
            reported.value.map(\.code) == [
                .emptyName, .nameTooLong, .nonFiniteNumber, .invalidName, .invalidPropertyKey,
            ])
        #expect(statistics.recentProblems == reported.value)
    }
}

extension Collection {
    /// The single element, or nil when there are zero or several.
    var only: Element? { count == 1 ? first : nil }
}
