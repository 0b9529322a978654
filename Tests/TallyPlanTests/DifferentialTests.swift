import Foundation
import Tally
import TallyPlan
import Testing

/// Tally against python jsonschema (Draft 2020-12, formats asserted) on the committed corpus in
/// `Fixtures/jsonschema-differential.json`, which `.ci/jsonschema-differential` writes from python's verdicts
/// (and checks with `--check`). Every case must agree, except the deliberate differences the corpus records
/// with their reasons, and the keywords Tally refuses rather than checks.
@Suite("Differential: python jsonschema", .readsPlans)
struct DifferentialTests {
    struct Corpus: Decodable {
        let jsonschema: String
        let cases: [Case]
    }

    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        enum Outcome: Decodable, Equatable, Sendable {
            case valid(Bool)
            case unreadable

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let valid = try? container.decode(Bool.self) {
                    self = .valid(valid)
                } else if try container.decode(String.self) == "unreadable" {
                    self = .unreadable
                } else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "true, false or unreadable")
                }
            }
        }

        let group: String
        let id: String
        let schema: String
        let instance: String
        let python: Bool
        /// Tally's outcome where it deliberately differs from python, explained by `why`.
        let tally: Outcome?
        let why: String?
        /// The keywords Tally names when it refuses the plan.
        let refused: [String]?

        var testDescription: String { "\(group): \(id)" }
    }

    static let corpus: Corpus = {
        do {
            let url = Fixtures.directory.appendingPathComponent("jsonschema-differential.json")
            return try JSONDecoder().decode(Corpus.self, from: Data(contentsOf: url))
        } catch {
            fatalError("The differential corpus does not load: \(error)")
        }
    }()

    /// A plan whose one event has one property `p` with the case's schema; the instance is that property.
    static func planText(_ schema: String) -> String {
        """
        {"version": 1, "events": [{"name": "e", "description": "One differential case.", "additionalProperties": true,
          "properties": {"p": \(schema)}}]}
        """
    }

    enum Verdict: Equatable {
        case valid(Bool)
        case unreadable
        case refused([String])
    }

    static func tallyVerdict(_ testCase: Case) throws -> Verdict {
        let result = PlanLoader.load(text: planText(testCase.schema), file: "plan.json")
        let plan = try result.get(allowingUncheckedKeywords: true)
        if !plan.uncheckedKeywords.isEmpty {
            #expect(throws: PlanError.self) { try result.get() }
            return .refused(plan.uncheckedKeywords.map(\.keyword).sorted())
        }
        let instance: PropertyValue
        do {
            instance = try PropertyValue(json: testCase.instance)
        } catch {
            return .unreadable
        }
        return .valid(PlanValidator(plan: plan).validate(Event("e", ["p": instance])).isEmpty)
    }

    @Test(arguments: corpus.cases)
    func tallyReachesTheRecordedVerdict(_ testCase: Case) throws {
        let verdict = try Self.tallyVerdict(testCase)
        if let refused = testCase.refused {
            #expect(verdict == .refused(refused.sorted()))
            return
        }
        switch testCase.tally {
        case nil: #expect(verdict == .valid(testCase.python), "python jsonschema says \(testCase.python)")
        case .valid(let valid):
            #expect(valid != testCase.python, "a recorded difference must differ from python")
            #expect(testCase.why?.isEmpty == false)
            #expect(verdict == .valid(valid), "\(testCase.why ?? "")")
        case .unreadable:
            #expect(verdict == .unreadable, "\(testCase.why ?? "")")
        }
    }

    /// The figure the report quotes; update it with the corpus.
    @Test func theAgreementCountIsAsRecorded() throws {
        var agree = 0
        var differ = 0
        var refused = 0
        for testCase in Self.corpus.cases {
            switch try Self.tallyVerdict(testCase) {
            case .valid(let valid) where valid == testCase.python: agree += 1
            case .refused: refused += 1
            default: differ += 1
            }
        }
        #expect(Self.corpus.cases.count == 240)
        #expect(agree == 209)
        #expect(differ == 17)
        #expect(refused == 14)
        #expect(Self.corpus.jsonschema == "4.26.0")
    }
}
