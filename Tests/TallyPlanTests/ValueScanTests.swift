import Tally
import TallyPlan
import Testing

/// The value scan of `tally validate` asks its first question (does any unmarked value hold an @ or a +?) in
/// the same pass that checks the members, and reads further only then: what it finds must be what
/// `PersonalDataScan` finds in the unmarked properties, whichever member holds it.
@Suite(.readsPlans) struct ValueScanTests {
    static let plan = """
        version: 1
        events:
          - name: message_sent
            description: The user sent a message.
            additionalProperties: true
            properties:
              email: { type: string, format: email, personal: { kind: email, rule: send } }
              note: { type: string }
              meta: { type: object }
              tags: { type: array, items: { type: string } }
        """

    static func found(_ properties: [String: PropertyValue]) throws -> [String] {
        let validator = PlanValidator(plan: try TrackingPlan(text: plan), scansUnmarkedValues: true)
        return validator.validate(Event("message_sent", properties)).map { "\($0.kind) \($0.path) \($0.rule)" }
    }

    @Test func onlyTheMarkedPropertyHoldsAnAddress() throws {
        #expect(
            try Self.found(["email": "ada@example.com", "note": "hello", "tags": ["a", "b"], "meta": ["k": 1]]) == [])
        // A + or an @ that is not personal data is read and let go.
        #expect(try Self.found(["email": "ada@example.com", "note": "1 + 1 @ noon"]) == [])
    }

    @Test func unmarkedValuesAreFoundWhereverTheyAre() throws {
        #expect(
            try Self.found(["email": "ada@example.com", "note": "write to bob@example.com"]) == [
                "personalDataUnmarked /properties/note email"
            ])
        // In an undeclared property, an object and an array, after a marked one.
        #expect(
            try Self.found([
                "email": "ada@example.com", "extra": "+44 20 7946 0958", "meta": ["contact": ["eve@example.com"]],
                "tags": ["x", "carol@example.com"],
            ]) == [
                "personalDataUnmarked /properties/extra phone",
                "personalDataUnmarked /properties/meta/contact/0 email",
                "personalDataUnmarked /properties/tags/1 email",
            ])
        // The same without the scan: nothing.
        let plain = PlanValidator(plan: try TrackingPlan(text: Self.plan))
        #expect(plain.validate(Event("message_sent", ["note": "bob@example.com"])) == [])
    }
}
