// Reading plan text needs Yams, which the `Plans` trait brings (PlanLoader explains the error without it).
#if Plans
import Foundation
import Tally
import Yams

/// Reading what a plan says about privacy: `personal:` marks on properties, the `destinations:` purposes, the
/// purposes that need `consent:`, and an event's `expires:` day.
extension PlanReader {
    /// `personal: email` (a kind, no rule) or `personal: { kind: email, rule: hash }`.
    mutating func readPersonalMark(_ node: Node) -> PersonalMark? {
        if case .scalar = node {
            guard let kind = string(node, "'personal' (a kind, or { kind: ..., rule: ... })") else { return nil }
            return mark(kind: kind, node)
        }
        guard let members = mapping(node, "'personal'") else { return nil }
        var kind: String?
        var rule: PersonalDataRule?
        for (key, keyNode, value) in members {
            switch key {
            case "kind":
                kind = string(value, "'personal.kind'")
            case "rule":
                guard let text = string(value, "'personal.rule'") else { break }
                if let known = PersonalDataRule(rawValue: text) {
                    rule = known
                } else {
                    let rules = PersonalDataRule.allCases.map(\.rawValue)
                    let suggestion = Self.closest(to: text, in: rules).map { "; did you mean '\($0)'?" } ?? ""
                    error(
                        "Unknown rule '\(text)'; expected one of \(rules.joined(separator: ", "))\(suggestion)", value)
                }
            default:
                unknownKey(key, keyNode, known: ["kind", "rule"], what: "key of 'personal'")
            }
        }
        guard let kind else {
            error("'personal' needs a 'kind', such as email, phone or free_text", node)
            return nil
        }
        return mark(kind: kind, node).map { PersonalMark(kind: $0.kind, rule: rule) }
    }

    private mutating func mark(kind: String, _ node: Node) -> PersonalMark? {
        guard !kind.isEmpty else {
            error("'personal' needs a kind, such as email, phone or free_text", node)
            return nil
        }
        return PersonalMark(kind: PersonalDataKind(kind), rule: nil)
    }

    /// `destinations: { firebase: { purposes: [analytics] }, ads: { purposes: [advertising] } }`.
    mutating func readDestinations(_ node: Node) -> [String: Set<ConsentPurpose>] {
        guard let members = mapping(node, "'destinations'") else { return [:] }
        var destinations: [String: Set<ConsentPurpose>] = [:]
        for (name, _, value) in members {
            guard let fields = mapping(value, "Destination '\(name)'") else { continue }
            var purposes: Set<ConsentPurpose>?
            for (key, keyNode, field) in fields {
                switch key {
                case "purposes":
                    purposes = Set((strings(field, "'purposes'") ?? []).map { ConsentPurpose($0.0) })
                case "description", "owner":
                    _ = string(field, "'\(key)'")
                default:
                    unknownKey(key, keyNode, known: ["purposes", "description", "owner"], what: "destination key")
                }
            }
            guard let purposes else {
                error("Destination '\(name)' needs 'purposes', the consent purposes it may receive", value)
                continue
            }
            destinations[name] = purposes
        }
        return destinations
    }

    /// `consent: { required: [analytics, advertising] }`: the purposes that need the user's consent.
    /// `necessary` is an error there: it is what needs none.
    mutating func readConsent(_ node: Node) -> Set<ConsentPurpose> {
        guard let members = mapping(node, "'consent'") else { return [] }
        var required: Set<ConsentPurpose> = []
        for (key, keyNode, value) in members {
            switch key {
            case "required":
                for (name, nameNode) in strings(value, "'consent.required'") ?? [] {
                    guard !name.isEmpty else {
                        error(
                            "'consent.required' lists purposes by name, such as analytics; an empty name is not one",
                            nameNode)
                        continue
                    }
                    guard ConsentPurpose(name) != .necessary else {
                        error(
                            "'consent.required' cannot list 'necessary': it is the purpose of what is strictly needed and never asks for consent",
                            nameNode)
                        continue
                    }
                    required.insert(ConsentPurpose(name))
                }
            case "description":
                _ = string(value, "'description'")
            default:
                unknownKey(key, keyNode, known: ["required", "description"], what: "key of 'consent'")
            }
        }
        return required
    }

    /// A calendar day written `YYYY-MM-DD`, or nil (with an error).
    mutating func day(_ node: Node, _ what: String) -> String? {
        guard let text = string(node, what) else { return nil }
        guard Self.isDay(text) else {
            error("\(what) must be a day written YYYY-MM-DD, such as 2027-06-30, not \"\(text)\"", node)
            return nil
        }
        return text
    }

    /// Whether `text` is a real day in the form `YYYY-MM-DD`.
    static func isDay(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }
}
#endif
