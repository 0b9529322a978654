import Foundation
import Tally
import TallyPlan
import Testing

/// Numbers compare exactly at any size JSON can write: no rounding through doubles, no `null`.
@Suite("Exact numbers", .readsPlans)
struct ExactNumberTests {
    /// The violations of one event `e` with property `p` read from JSON, against `schema`.
    static func violations(_ schema: String, json: String) throws -> [PlanViolation] {
        let plan = try Fixtures.singleProperty(schema)
        return PlanValidator(plan: plan).validate(Event("e", ["p": try PropertyValue(json: json)]))
    }

    static let twoTo53 = "9007199254740992"
    static let twoTo53Plus1 = "9007199254740993"
    static let twoTo64 = "18446744073709551616"
    static let twoTo64Plus1 = "18446744073709551617"

    @Test func maximumTwoTo53RejectsTheNextInteger() throws {
        let broken = try Self.violations("{ type: integer, maximum: \(Self.twoTo53) }", json: Self.twoTo53Plus1)
        #expect(broken.map(\.kind) == [.outOfRange])
        #expect(broken.first?.message == "9007199254740993 breaks maximum: 9007199254740992")
        #expect(try Self.violations("{ type: integer, maximum: \(Self.twoTo53) }", json: Self.twoTo53).isEmpty)
    }

    @Test func exclusiveMaximumTwoTo53Plus1AcceptsTwoTo53() throws {
        #expect(try Self.violations("{ exclusiveMaximum: \(Self.twoTo53Plus1) }", json: Self.twoTo53).isEmpty)
        #expect(try Self.violations("{ exclusiveMaximum: \(Self.twoTo53Plus1) }", json: Self.twoTo53Plus1).count == 1)
    }

    @Test func enumOfAnIntegerPast64BitsIsExact() throws {
        let schema = "{ enum: [\(Self.twoTo64Plus1)] }"
        #expect(try Self.violations(schema, json: Self.twoTo64).map(\.kind) == [.notInEnum])
        #expect(try Self.violations(schema, json: Self.twoTo64Plus1).isEmpty)
        #expect(try Self.violations("{ const: \(Self.twoTo64Plus1) }", json: Self.twoTo64).map(\.kind) == [.notConst])
    }

    @Test func tenToThe400IsAnIntegerAndNeverNull() throws {
        let huge = "1" + String(repeating: "0", count: 400)
        #expect(try Self.violations("{ type: integer }", json: huge).isEmpty)
        #expect(try Self.violations("{ type: integer }", json: "1e400").isEmpty)
        let broken = try Self.violations("{ type: integer, maximum: 100 }", json: huge)
        #expect(broken.map(\.rule) == ["maximum: 100"])
        #expect(broken.first?.actual?.jsonString == huge)
        #expect(broken.first?.message.hasPrefix("1000000") == true)
        #expect(
            try Self.violations("{ type: string }", json: "1e400").first?.message
                == "1e400 is an integer, expected type: string")
        #expect(try Self.violations("{ minimum: 0 }", json: "-1e400").map(\.rule) == ["minimum: 0"])
    }

    @Test func planBoundsKeepTheirDigits() throws {
        let plan = try Fixtures.singleProperty("{ minimum: -\(Self.twoTo64Plus1), maximum: 1e400 }")
        let schema = try #require(plan.events.first?.properties["p"])
        #expect(schema.minimum?.description == "-\(Self.twoTo64Plus1)")
        #expect(schema.maximum?.description == "1e400")
        let validator = PlanValidator(plan: plan)
        #expect(validator.validate(Event("e", ["p": .int(.min)])).isEmpty)
        #expect(validator.validate(Event("e", ["p": .double(1e308)])).isEmpty)
        #expect(validator.validate(Event("e", ["p": try PropertyValue(json: "-\(Self.twoTo64)")])).isEmpty)
        #expect(validator.validate(Event("e", ["p": try PropertyValue(json: "-18446744073709551618")])).count == 1)
    }

    @Test func integersAndDoublesCompareByExactValue() throws {
        // 2^53 as a double is below the integer 2^53 + 1, and above the integer 2^53 - 1.
        #expect(try Self.violations("{ maximum: \(Self.twoTo53Plus1) }", json: "9007199254740992.0").isEmpty)
        #expect(try Self.violations("{ maximum: 9007199254740992.0 }", json: Self.twoTo53Plus1).count == 1)
        #expect(try Self.violations("{ minimum: 9007199254740992.0 }", json: "9007199254740991").count == 1)
        #expect(try Self.violations("{ maximum: 0.5 }", json: "0").isEmpty)
        #expect(try Self.violations("{ exclusiveMinimum: 0.1 }", json: "0.1").count == 1)
        #expect(try Self.violations("{ maximum: 0.1 }", json: "0.1").isEmpty)
        // The same value in different cases is equal for enum and const.
        #expect(try Self.violations("{ enum: [1.0] }", json: "1").isEmpty)
        #expect(try Self.violations("{ const: 18446744073709551616.0 }", json: Self.twoTo64).isEmpty)
        #expect(try Self.violations("{ const: 1e400 }", json: "1" + String(repeating: "0", count: 400)).isEmpty)
    }

    @Test(arguments: [
        ("{ multipleOf: 0.1 }", "0.3", true), ("{ multipleOf: 0.01 }", "0.07", true),
        ("{ multipleOf: 0.1 }", "0.35", false),
        ("{ multipleOf: 3 }", "10", false), ("{ multipleOf: 3 }", "-9", true), ("{ multipleOf: 1.5 }", "4.5", true),
        ("{ multipleOf: 2 }", "18446744073709551618", true), ("{ multipleOf: 2 }", "18446744073709551617", false),
        ("{ multipleOf: 7 }", "1e400", false), ("{ multipleOf: 5 }", "1e400", true),
        ("{ multipleOf: 1e-308 }", "1e308", true),
        ("{ multipleOf: 0.0001 }", "0.0075", true), ("{ multipleOf: 1 }", "1.5", false),
        ("{ multipleOf: 1 }", "0", true),
        ("{ multipleOf: 123456789012345678901234567890 }", "246913578024691357802469135780", true),
        ("{ multipleOf: 123456789012345678901234567890 }", "246913578024691357802469135781", false),
    ])
    func multipleOfDividesTheDecimalsJSONWrites(schema: String, json: String, valid: Bool) throws {
        let broken = try Self.violations(schema, json: json)
        #expect(broken.isEmpty == valid, "\(json) with \(schema): \(broken)")
        if !valid { #expect(broken.first?.kind == .notMultipleOf) }
    }

    @Test func multipleOfMustBePositive() {
        #expect(throws: PlanError.self) { try Fixtures.singleProperty("{ multipleOf: 0 }") }
        #expect(throws: PlanError.self) { try Fixtures.singleProperty("{ multipleOf: -2 }") }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteDoublesAreViolationsNotNull(value: Double) throws {
        let plan = try Fixtures.singleProperty("{}")
        let violations = PlanValidator(plan: plan).validate(Event("e", ["p": .double(value)]))
        #expect(violations.map(\.kind) == [.nonFiniteNumber])
        #expect(violations.first?.message.hasPrefix("\(value) cannot be written in JSON") == true)
    }

    @Test func generatedCodeKeepsABigConstant() throws {
        let plan = try Fixtures.singleProperty("{ const: \(Self.twoTo64Plus1) }")
        let source = SwiftCodeGenerator().generate(plan, planFileName: "plan.yaml")
        #expect(source.contains(#".bigNumber(BigNumber("18446744073709551617")!)"#))
    }

    @Test func countsBeyondIntMeanNoLimit() throws {
        let plan = try Fixtures.singleProperty("{ maxLength: 1e20, maxItems: 99999999999999999999 }")
        #expect(plan.events.first?.properties["p"]?.maxLength == .max)
        #expect(plan.events.first?.properties["p"]?.maxItems == .max)
    }
}
