import Foundation
import Tally

extension TrackingPlan {
    /// Where the plan contradicts itself about privacy, as lint errors (`tally lint` prints them after the
    /// file's own findings; the plan still loads, so the other gates judge events by it meanwhile):
    ///
    /// - an event past its `expires` day;
    /// - a `personal` property, at any depth, with no rule;
    /// - a `personal` mark with a rule other than `send` on a schema inside a property (a member of an
    ///   object, an array's `items`, `additionalProperties`): the client applies personal-data rules to the
    ///   event's top-level properties only (``TrackingPlan/personalProperties``), so the value would leave
    ///   the app as it is; mark the top-level property that holds it instead;
    /// - (a warning) a property marked `personal: { rule: hash }` that has a type other than `string`, or
    ///   `format`, `pattern`, `enum`, `const`, `minLength`, `maxLength`, or a keyword of numbers, arrays or
    ///   objects: a hashed value is opaque to validation, so they are never checked;
    /// - a property, at any depth, whose `format` holds personal data (`format: email`) with no `personal`
    ///   mark on it or a container of it: `tally validate` reports every such value it sees
    ///   (``PlanViolation/Kind/personalDataUnmarked``), so the plan would fail on its own events. Inside a
    ///   property, a mark on the top-level property that holds it (with any rule) or a `send` mark on it
    ///   satisfies this;
    /// - a property marked `personal: { kind: advertising_id }` on an event whose purpose is not
    ///   `advertising`: the advertising identifier travels only on advertising events
    ///   (``PlanViolation/Kind/advertisingIdentifierOutsideAdvertising``);
    /// - an event whose purpose no destination of `destinations:` may receive (`necessary` needs none);
    /// - an event that flows without the user's answer (its purpose is not in `consent.required`, or it is
    ///   `necessary`) and that a destination which may receive advertising may receive: its data would be
    ///   used for tracking (``PrivacyManifest/isTracking(destinationPurposes:)``) without consent. A plan
    ///   with no `consent:` block requires consent for nothing, so there every event such a destination may
    ///   receive is reported; a plan without `destinations:` says nothing about where events go, so none is;
    /// - a purpose of `consent.required` that no event needs (most likely a misspelling: the client would
    ///   gate a purpose nothing uses and send the real one's events ungated), at its place in the list; not
    ///   in a plan with no event yet;
    /// - a track and a screen event of one name with different purposes or personal marks: the client's
    ///   rules (``rules``) name events as `PersonalProperty` does, by name, so it would apply one event's
    ///   rules to both.
    ///
    /// Findings about a property point at its line (``PlannedEvent/propertyLocations``), the others at the
    /// event's line (for plans made in code, at `plan`), in file order.
    ///
    /// ```swift
    /// for finding in plan.privacyDiagnostics() { print(finding) }
    /// // plan.yaml:9:7: error: Property 'email' of 'signed_up' holds e-mail addresses (format: email) but ...
    /// ```
    ///
    /// - Parameter today: the day to compare `expires` with, `YYYY-MM-DD`; by default today in UTC.
    public func privacyDiagnostics(today: String = TrackingPlan.today()) -> [PlanDiagnostic] {
        var found: [PlanDiagnostic] = []
        for event in events {
            let location = event.location ?? SourceLocation(file: "plan")
            if let expires = event.expires, expires < today {
                let owner = event.owner.map { " (owner: \($0))" } ?? ""
                found.append(
                    PlanDiagnostic(
                        .error,
                        "Event '\(event.name)' expired on \(expires)\(owner); remove it from the plan and the app, or extend 'expires'",
                        at: location))
            }
            for property in event.plannedSchemas {
                found += diagnostics(of: property, in: event, at: event.propertyLocations[property.pointer] ?? location)
            }
            if !destinations.isEmpty, event.purpose != .necessary,
                !destinations.values.contains(where: { $0.contains(event.purpose) })
            {
                let allowed = destinations.keys.sorted().map { name in
                    "\(name): \(destinations[name]!.sorted().map(\.rawValue).joined(separator: ", "))"
                }
                found.append(
                    PlanDiagnostic(
                        .error,
                        "Event '\(event.name)' needs purpose '\(event.purpose)', which no destination may receive (\(allowed.joined(separator: "; ")))",
                        at: location))
            }
            if let message = trackingWithoutConsent(event) {
                found.append(PlanDiagnostic(.error, message, at: location))
            }
        }
        found += unneededConsentDiagnostics()
        found += sharedNameDiagnostics()
        // In file order; findings at one place (or, for plans made in code, at none) in the order found.
        return found.enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
            .map(\.element)
    }

    /// What a property's schema contradicts: a mark with no rule, a rule the client cannot apply (on a schema
    /// inside a property), a hash rule on an e-mail format, an advertising identifier outside advertising, a
    /// personal format with no mark.
    private func diagnostics(
        of property: PlannedSchema, in event: PlannedEvent, at location: SourceLocation
    ) -> [PlanDiagnostic] {
        let name = "Property '\(property.name)' of '\(event.name)'"
        let holder = "the top-level property '\(property.topLevelName)' that holds it"
        guard let mark = property.schema.personal else {
            guard !property.isCoveredByMark, let format = property.schema.format, let kind = format.personalDataKind
            else { return [] }
            let suggestion = PersonalMark.suggestion(for: kind)
            let fix =
                property.isTopLevel
                ? "add \(suggestion), with rule send, hash, redact or never_send"
                : "mark \(holder) \(suggestion) (the client applies personal-data rules to top-level properties only), or mark this one personal: { kind: \(kind), rule: send }"
            return [
                PlanDiagnostic(
                    .error,
                    "\(name) holds \(kind == .email ? "e-mail addresses" : "\(kind) values") (format: \(format.rawValue)) but is not marked personal, so tally validate reports every value it sees there (personalDataUnmarked); \(fix)",
                    at: location)
            ]
        }
        var found: [PlanDiagnostic] = []
        switch mark.rule {
        case nil where property.isTopLevel:
            found.append(
                PlanDiagnostic(
                    .error,
                    "\(name) is personal (\(mark.kind)) with no rule; add rule: send, hash, redact or never_send",
                    at: location))
        case nil:
            found.append(
                PlanDiagnostic(
                    .error,
                    "\(name) is personal (\(mark.kind)) with no rule; add rule: send (the client applies personal-data rules to top-level properties only: to hash, redact or never send it, mark \(holder))",
                    at: location))
        case let rule? where rule != .send && !property.isTopLevel:
            found.append(
                PlanDiagnostic(
                    .error,
                    "\(name) is personal (\(mark.kind)) with rule \(rule), but the client applies personal-data rules to top-level properties only, so this value would leave the app as it is, against its rule; mark \(holder) instead (its rule applies to its whole value), and give this one rule: send",
                    at: location))
        case .hash? where !Self.valueKeywords(of: property.schema).isEmpty:
            let keywords = Self.valueKeywords(of: property.schema)
            found.append(
                PlanDiagnostic(
                    .warning,
                    "\(name) has personal rule hash, so \(Self.list(keywords.map { "'\($0)'" })) \(keywords.count == 1 ? "is" : "are") never checked: the client sends a hash, which keeps nothing of the value, and validation only checks that it no longer looks like the data; remove \(keywords.count == 1 ? "it" : "them"), or use rule send",
                    at: location))
        default:
            break
        }
        if mark.kind == .advertisingIdentifier, event.purpose != .advertising {
            found.append(
                PlanDiagnostic(
                    .error,
                    "\(name) is the advertising identifier (personal: \(mark.kind)), which may travel only on events of purpose advertising, but the event's purpose is \(event.purpose); move the property to an advertising event, or give this one purpose: advertising",
                    at: location))
        }
        return found
    }

    /// Why `event` would reach a destination that receives advertising without the user's consent, or nil.
    private func trackingWithoutConsent(_ event: PlannedEvent) -> String? {
        let purpose = event.purpose
        guard purpose == .necessary || !consentRequired.contains(purpose) else { return nil }
        let receivers = trackingDestinations(receiving: purpose)
        guard !receivers.isEmpty else { return nil }
        let names = Self.list(receivers.map { "'\($0)'" })
        let reaching =
            receivers.count == 1
            ? "destination \(names), which receives advertising" : "destinations \(names), which receive advertising"
        let start = "Event '\(event.name)' may reach \(reaching), without the user's consent"
        if purpose == .necessary {
            return
                "\(start): its purpose 'necessary' never asks for it; take 'necessary' off the purposes of \(names)"
        }
        return
            "\(start): 'consent.required' does not list its purpose '\(purpose)'; require consent for it (consent: { required: [\(purpose)] }), or take '\(purpose)' off the purposes of \(names)"
    }

    /// The keywords of `schema` that judge a value's content (a hash keeps none of it): its type unless it
    /// is a string (what a hash is), and every keyword of a string, a number, an array or an object.
    private static func valueKeywords(of schema: PropertySchema) -> [String] {
        var found: [String] = []
        let types = schema.nonNullTypes
        if !types.isEmpty, types != [.string] {
            let named = types.map(\.rawValue)
            found.append("type: " + (named.count == 1 ? named[0] : "[" + named.joined(separator: ", ") + "]"))
        }
        if let format = schema.format { found.append("format: \(format.rawValue)") }
        if schema.pattern != nil { found.append("pattern") }
        if schema.enumValues != nil { found.append("enum") }
        if schema.constValue != nil { found.append("const") }
        if schema.minLength != nil { found.append("minLength") }
        if schema.maxLength != nil { found.append("maxLength") }
        let numbers: [(String, SchemaNumber?)] = [
            ("minimum", schema.minimum), ("maximum", schema.maximum), ("exclusiveMinimum", schema.exclusiveMinimum),
            ("exclusiveMaximum", schema.exclusiveMaximum), ("multipleOf", schema.multipleOf),
        ]
        found += numbers.filter { $0.1 != nil }.map(\.0)
        if schema.items != nil { found.append("items") }
        if schema.minItems != nil { found.append("minItems") }
        if schema.maxItems != nil { found.append("maxItems") }
        if schema.uniqueItems { found.append("uniqueItems") }
        if schema.properties != nil { found.append("properties") }
        if !schema.required.isEmpty { found.append("required") }
        if schema.additionalProperties != nil { found.append("additionalProperties") }
        if schema.minProperties != nil { found.append("minProperties") }
        if schema.maxProperties != nil { found.append("maxProperties") }
        return found
    }

    /// `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`.
    private static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    /// Each purpose of `consent.required` no event needs, with the closest one an event does need.
    private func unneededConsentDiagnostics() -> [PlanDiagnostic] {
        guard !events.isEmpty else { return [] }
        let needed = Set(events.map(\.purpose))
        let candidates = needed.subtracting([.necessary]).map(\.rawValue).sorted()
        return consentRequired.subtracting(needed).sorted().map { purpose in
            let suggestion =
                Suggestions.closest(to: purpose.rawValue, in: candidates).map { "; did you mean '\($0)'?" }
                ?? "; remove it, or give it to the events that need it ('purpose: \(purpose.rawValue)')"
            return PlanDiagnostic(
                .error, "'consent.required' lists '\(purpose.rawValue)', which no event of the plan needs\(suggestion)",
                at: consentRequiredLocations[purpose] ?? SourceLocation(file: "plan"))
        }
    }

    /// Each screen event named like a track event, when the two differ in purpose or personal marks.
    private func sharedNameDiagnostics() -> [PlanDiagnostic] {
        let tracks = Dictionary(
            events.filter { $0.kind == .track }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return events.filter { $0.kind == .screen }.compactMap { screen in
            guard let track = tracks[screen.name] else { return nil }
            let marks = { (event: PlannedEvent) in
                Set(
                    event.properties.compactMap { name, schema in
                        schema.personal.map { "\(name.string) \($0.kind) \($0.rule.map { "\($0)" } ?? "")" }
                    })
            }
            let samePersonal = marks(screen) == marks(track)
            guard screen.purpose != track.purpose || !samePersonal else { return nil }
            return PlanDiagnostic(
                .error,
                "Screen '\(screen.name)' shares its name with a track event that has other \(screen.purpose != track.purpose ? "purpose ('\(track.purpose)', here '\(screen.purpose)')" : "personal marks"); the client's rules (PlannedEvents.rules) name events by name and would apply one's to both: rename one, or give both the same purpose and marks",
                at: screen.location ?? SourceLocation(file: "plan"))
        }
    }
}
