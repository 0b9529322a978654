import Foundation
import Tally
import TallyPlan
import Testing

/// `tally gen` lays its lines out as swift-format does (issue 37), so that `swift format lint --strict` passes
/// the generated file under swift-format's default configuration and the repository's. `.ci/check-generated-format`
/// runs swift-format itself on every plan of the repository; these tests check, without it, what breaks the
/// lint most often: a line past the limit, a trailing comma swift-format removes, an ungrouped long number.
@Suite("Generated code layout", .readsPlans)
struct CodeGenLayoutTests {
    /// Long names, descriptions and value lists everywhere, each short enough to fit a line on its own.
    static let plan = """
        version: 1
        destinations:
          product_analytics_destination_with_a_long_name:
            purposes: [analytics, necessary, personalisation_of_the_app]
            domains: [api.product-analytics.example.com, eu.api.product-analytics.example.com]
          ads: { purposes: [advertising] }
        consent:
          required: [advertising, personalisation_of_the_app]
        events:
          - name: checkout_completed_after_the_payment_step
            description: >-
              The user completed the checkout after the payment step, with every item of the cart paid
              and the receipt on its way to the customer's email address, which is a long sentence.
            owner: the checkout team
            tags: [checkout, revenue, conversion, funnel]
            purpose: personalisation_of_the_app
            properties:
              total_amount_with_taxes_and_shipping: { type: number, required: true }
              receipt_email_address_of_the_customer:
                type: [string, "null"]
                required: true
                personal: { kind: email, rule: hash }
              shipping_method:
                enum: [standard_shipping_option, express_shipping_option]
                required: true
              gift_wrapping_flags_for_each_item_of_the_cart:
                type: array
                items: { type: array, items: { type: [boolean, "null"] } }
              item_categories_of_the_cart: { type: array, items: { type: string }, required: true }
              loyalty_points_earned: { const: 1234567 }
              delivery_time_window_choice: { enum: [morning, afternoon] }
          - name: onboarding_step_viewed
            kind: screen
            description: One step.
            properties:
              step: { type: integer, required: true }
          - name: signed_in
            kind: identify
            description: The user signed in.
            properties:
              email_address_of_the_user_who_signed_in: { type: string, personal: { kind: email, rule: redact } }
        """

    static func generated(indentWidth: Int = 4) throws -> [Substring] {
        let source = SwiftCodeGenerator(indentWidth: indentWidth).generate(
            try TrackingPlan(text: plan), planFileName: "tracking-plan.yaml")
        return source.split(separator: "\n", omittingEmptySubsequences: false)
    }

    static func trimmed(_ line: Substring) -> Substring { line.drop { $0 == " " } }

    @Test(arguments: [4, 2])
    func noLineIsLongerThanSwiftFormatsDefaultLimit(indentWidth: Int) throws {
        let long = try Self.generated(indentWidth: indentWidth).filter { $0.count > SwiftCodeGenerator.lineLimit }
        #expect(long == [])
        #expect(SwiftCodeGenerator.lineLimit == 100)
    }

    /// The committed fixture is laid out the same way.
    @Test func theCommittedFixtureFitsTheLimit() throws {
        let committed = try String(contentsOf: CodeGenTests.generatedFile, encoding: .utf8)
        #expect(committed.split(separator: "\n").filter { $0.count > SwiftCodeGenerator.lineLimit } == [])
    }

    /// swift-format removes a trailing comma after the last argument and after the only element of a
    /// literal, and wants one after the last of several elements of a literal written on several lines.
    @Test func trailingCommasAreWhereSwiftFormatWantsThem() throws {
        let lines = try Self.generated()
        for (index, line) in lines.enumerated().dropLast() where line.hasSuffix(",") {
            #expect(!Self.trimmed(lines[index + 1]).hasPrefix(")"), "line \(index + 1): \(line)")
        }
        var checked: Set<Bool> = []
        for (index, line) in lines.enumerated() where line.hasSuffix("[") {
            // The lines of this literal, up to the bracket at its indentation that closes it; an element
            // starts at one level deeper (a line there that starts with a brace or parenthesis ends one).
            let indent = Self.indentation(line)
            guard
                let end = lines[(index + 1)...].firstIndex(where: {
                    Self.indentation($0) == indent && Self.trimmed($0).hasPrefix("]")
                }), end > index + 1
            else { continue }
            let starts = lines[(index + 1)..<end].filter {
                Self.indentation($0) == indent + 4 && !"})]".contains(Self.trimmed($0).first ?? " ")
            }
            let elements = starts.map { Self.topLevelCommas(in: $0.hasSuffix(",") ? $0.dropLast() : $0) + 1 }
                .reduce(0, +)
            #expect(lines[end - 1].hasSuffix(",") == (elements > 1), "line \(index + 1): \(line)")
            checked.insert(elements > 1)
        }
        #expect(checked == [true, false])
    }

    static func indentation(_ line: Substring) -> Int { line.prefix { $0 == " " }.count }

    /// The commas of `line` outside parentheses, brackets, braces and string literals.
    static func topLevelCommas(in line: Substring) -> Int {
        var (depth, count, inString, escaped) = (0, 0, false, false)
        for character in line {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case "\"": inString = true
            case "(", "[", "{": depth += 1
            case ")", "]", "}": depth -= 1
            case "," where depth == 0: count += 1
            default: break
            }
        }
        return count
    }

    @Test func longLinesAreBrokenWhereSwiftFormatBreaksThem() throws {
        let source = try Self.generated().joined(separator: "\n")
        #expect(
            source.contains(
                """
                        if let value = giftWrappingFlagsForEachItemOfTheCart {
                            properties["gift_wrapping_flags_for_each_item_of_the_cart"] = .array(
                                value.map { element -> PropertyValue in
                                    .array(
                                        element.map { element -> PropertyValue in
                                            element.map { value -> PropertyValue in .bool(value) } ?? .null
                                        })
                                })
                        }
                """))
        #expect(
            source.contains(
                """
                        return Event(
                            kind: .track, name: "checkout_completed_after_the_payment_step", properties: properties,
                            purpose: "personalisation_of_the_app")
                """))
        #expect(
            source.contains(
                """
                        public enum ShippingMethod:
                            Swift.String, Swift.Sendable, Swift.Hashable, Swift.CaseIterable
                        {
                """))
        // A parameter whose type is too long for a line breaks before the type's last member.
        #expect(
            source.contains(
                """
                        deliveryTimeWindowChoice: PlannedEvents.CheckoutCompletedAfterThePaymentStep
                            .DeliveryTimeWindowChoice? = nil,
                """))
        #expect(source.contains(#"            "loyalty_points_earned": .int(1_234_567),"#))
        #expect(source.contains(#"            "step": .int(step)"# + "\n        ]\n"))
    }

    /// Only the indentation differs between widths: the lines break at the same places.
    @Test func theIndentWidthChangesOnlyTheIndentation() throws {
        let four = try Self.generated(indentWidth: 4)
        let two = try Self.generated(indentWidth: 2)
        #expect(four.count == two.count)
        for (wide, narrow) in zip(four, two) {
            #expect(Self.trimmed(wide) == Self.trimmed(narrow))
            #expect(wide.prefix { $0 == " " }.count == 2 * narrow.prefix { $0 == " " }.count, "\(wide)")
        }
        #expect(two.contains("  public static func onboardingStepViewedScreen(step: Int) -> Event {"))
    }
}
