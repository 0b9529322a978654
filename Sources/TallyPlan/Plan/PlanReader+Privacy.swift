// Reading plan text needs Yams, which the `Plans` trait brings (PlanLoader explains the error without it).
#if Plans
import Foundation
import Tally
import Yams

/// Reading what a plan says about privacy: `personal:` marks on properties, the `destinations:` purposes and
/// domains, the purposes that need `consent:`, and an event's `expires:` day.
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

    /// `destinations: { firebase: { purposes: [analytics], domains: [app-measurement.com] }, ads: { purposes:
    /// [advertising] } }`: the purposes each destination may receive, and the hosts it sends to (lowercased).
    mutating func readDestinations(_ node: Node) -> (
        purposes: [String: Set<ConsentPurpose>], domains: [String: Set<String>]
    ) {
        guard let members = mapping(node, "'destinations'") else { return ([:], [:]) }
        var destinations: [String: Set<ConsentPurpose>] = [:]
        var domains: [String: Set<String>] = [:]
        var domainNodes: [(destination: String, domain: String, node: Node)] = []
        for (name, _, value) in members {
            guard let fields = mapping(value, "Destination '\(name)'") else { continue }
            var purposes: Set<ConsentPurpose>?
            for (key, keyNode, field) in fields {
                switch key {
                case "purposes":
                    purposes = Set((strings(field, "'purposes'") ?? []).map { ConsentPurpose($0.0) })
                case "domains":
                    for (text, domainNode) in strings(field, "'domains'") ?? [] {
                        guard let domain = domain(text, domainNode) else { continue }
                        domains[name, default: []].insert(domain)
                        domainNodes.append((name, domain, domainNode))
                    }
                case "description", "owner":
                    _ = string(field, "'\(key)'")
                default:
                    unknownKey(
                        key, keyNode, known: ["purposes", "domains", "description", "owner"], what: "destination key")
                }
            }
            guard let purposes else {
                error("Destination '\(name)' needs 'purposes', the consent purposes it may receive", value)
                continue
            }
            destinations[name] = purposes
        }
        // iOS blocks a tracking domain for every connection, so a host cannot serve both kinds of destination.
        let tracking = Set(destinations.filter { PrivacyManifest.isTracking(destinationPurposes: $0.value) }.keys)
        for (destination, domain, node) in domainNodes where !tracking.contains(destination) {
            guard let other = tracking.sorted().first(where: { domains[$0]?.contains(domain) == true }) else {
                continue
            }
            error(
                "Domain '\(domain)' of destination '\(destination)' is also a domain of '\(other)', which receives advertising: the privacy manifest must list it in NSPrivacyTrackingDomains, and iOS then blocks \(destination)'s uploads to it until the user allows tracking; give them different hosts",
                node)
        }
        return (destinations, domains)
    }

    /// A destination's host name, lowercased, or nil (with an error) for an empty one, one with spaces, or a
    /// URL, path or port (the error names the host to write instead).
    private mutating func domain(_ text: String, _ node: Node) -> String? {
        guard !text.isEmpty else {
            error("'domains' lists host names, such as track.ads.example; an empty one is not one", node)
            return nil
        }
        if text.contains(where: { "/:?#@".contains($0) }) {
            var host = Substring(text)
            if let scheme = host.range(of: "://") { host = host[scheme.upperBound...] }
            host = host.prefix { !"/?#".contains($0) }
            if let userInfo = host.lastIndex(of: "@") { host = host[host.index(after: userInfo)...] }
            host = host.prefix { $0 != ":" }
            let suggestion =
                host.isEmpty || host.hasPrefix("[") || host.contains(where: \.isWhitespace)
                ? "" : "write \"\(host)\", not "
            error("'domains' lists host names, not URLs, paths or ports: \(suggestion)\"\(text)\"", node)
            return nil
        }
        guard !text.contains(where: \.isWhitespace) else {
            error("'domains' lists host names, which hold no spaces: \"\(text)\"", node)
            return nil
        }
        return text.lowercased()
    }

    /// `consent: { required: [analytics, advertising] }`: the purposes that need the user's consent, each
    /// with its node. `necessary` is an error there: it is what needs none.
    mutating func readConsent(_ node: Node) -> [(purpose: ConsentPurpose, node: Node)] {
        guard let members = mapping(node, "'consent'") else { return [] }
        var required: [(purpose: ConsentPurpose, node: Node)] = []
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
                    required.append((ConsentPurpose(name), nameNode))
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
