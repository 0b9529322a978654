import Tally

/// One way an event breaks its tracking plan: what rule, where in the event, and the value found.
///
/// ```swift
/// let violations = validator.validate(Event("menu_item_ordered", ["quantity": 0]))
/// // [missingRequired at /properties/item_name, outOfRange at /properties/quantity (minimum: 1, actual 0)]
/// ```
///
/// ``description`` reads as one line, for example
/// `track "menu_item_ordered" /properties/quantity: 0 breaks minimum: 1`. Values of properties the plan
/// marks `personal` are never printed in it (they are still in ``actual``).
public struct PlanViolation: Sendable, Hashable, CustomStringConvertible {
    /// What kind of rule was broken.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The plan has no event of this kind and name.
        case unknownEvent
        /// A property listed in `required` is absent.
        case missingRequired
        /// The value is not of a `type` the schema accepts.
        case wrongType
        /// The value is not one of the schema's `enum` values.
        case notInEnum
        /// The value is not the schema's `const` value.
        case notConst
        /// A string has no match for the schema's `pattern`.
        case patternMismatch
        /// A number breaks `minimum`, `maximum`, `exclusiveMinimum` or `exclusiveMaximum`.
        case outOfRange
        /// A number divided by `multipleOf` does not give an integer.
        case notMultipleOf
        /// A string breaks `minLength` or `maxLength`, an array `minItems` or `maxItems`, or an object
        /// `minProperties` or `maxProperties`.
        case length
        /// An array with `uniqueItems: true` holds two equal elements.
        case notUnique
        /// A property or member the schema does not declare, where additional properties are not allowed.
        case unexpectedProperty
        /// A property marked `personal` holds a value its rule forbids: with `redact` (or no rule) anything but
        /// `null` or the redaction marker, with `never_send` anything but `null`, with `hash` a value that
        /// still looks like personal data. See ``PersonalMark``.
        case personalDataPresent
        /// A string in a property the plan does not mark `personal` looks like personal data (an e-mail
        /// address, an international phone number); found only by a validator that scans values
        /// (``PlanValidator/scansUnmarkedValues``). ``PlanViolation/rule`` names the kind found.
        case personalDataUnmarked
        /// A string is not a valid `format` value (date-time, email, uri, uuid...).
        case formatMismatch
        /// The plan says the event's purpose (`Event.purpose`) needs consent
        /// (``TrackingPlan/consentRequired``), and the event went out without the user's grant: while they
        /// had denied it or not answered, or from a client that did not gate the purpose at all
        /// (`DeliveredConsent.notRequired`: it is missing from the client's `consentRequired`). Found in
        /// an event delivered with its consent (`Envelope.consent`): ``PlanValidator/validate(_:consent:)``,
        /// `tally validate` and `tally coverage` on recordings. ``PlanViolation/rule`` names the purpose,
        /// ``PlanViolation/actual`` holds the recorded consent. An event with none recorded (a client without
        /// consent, or an older recording) is not one.
        case sentWithoutConsent
        /// The event was recorded with a purpose (`Event.purpose`, a record's `purpose`) other than its plan
        /// entry's (`purpose:`, ``PlannedEvent/purpose``): the client would gate it on the wrong answer and
        /// route it to the wrong destinations. Identify, group and alias events compare with the plan's event
        /// of their kind. ``PlanViolation/path`` is `/purpose`, ``PlanViolation/rule`` names the plan's purpose
        /// (`purpose: advertising`), ``PlanViolation/actual`` holds the recorded one.
        case purposeMismatch
        /// A property the event's plan entry marks as the advertising identifier (`personal: { kind:
        /// advertising_id }`) holds a value (not `null`, not redacted) in an event recorded with a purpose
        /// other than `advertising`: the advertising identifier may travel only on advertising events, which
        /// the user's tracking consent gates. ``PlanViolation/path`` points at the property,
        /// ``PlanViolation/actual`` holds the recorded purpose (the identifier is never shown).
        case advertisingIdentifierOutsideAdvertising
        /// A double that JSON cannot hold: NaN or an infinity. (The client replaces them with `null` before
        /// validation; events built by hand and checked directly can still carry them.)
        case nonFiniteNumber
    }

    /// What kind of rule was broken.
    public var kind: Kind
    /// How reports name the event (its `Event.reportName`): the name of a track or screen event, the
    /// kind and id of the others, such as `identify user-42`.
    public var eventName: String
    /// The event's kind.
    public var eventKind: Event.Kind
    /// A JSON pointer to the value in the event, such as `/properties/address/zip`; empty for
    /// ``Kind/unknownEvent``.
    public var path: String
    /// The rule as the plan spells it, such as `maxLength: 20`, `type: [string, null]` or `required`.
    public var rule: String
    /// The value found; nil when the property is missing or the whole event is unknown.
    public var actual: PropertyValue?
    /// Whether the value is personal data by the plan (`personal` on it or a container of it); such
    /// values are left out of ``message`` and ``description``.
    public var isPersonalData: Bool
    /// The event's position when a list of events was validated.
    public var eventIndex: Int?

    /// Creates a violation.
    public init(
        _ kind: Kind, eventName: String, eventKind: Event.Kind = .track, path: String, rule: String,
        actual: PropertyValue?, isPersonalData: Bool = false, eventIndex: Int? = nil
    ) {
        self.kind = kind
        self.eventName = eventName
        self.eventKind = eventKind
        self.path = path
        self.rule = rule
        self.actual = actual
        self.isPersonalData = isPersonalData
        self.eventIndex = eventIndex
    }

    /// What is wrong, without the event: `0 breaks minimum: 1`.
    public var message: String {
        let value = shownValue
        switch kind {
        case .unknownEvent: return "the event is not in the plan" + (rule.isEmpty || rule == "plan" ? "" : " (\(rule))")
        case .missingRequired: return "required property is missing"
        case .wrongType: return "\(value) is \(actual.map { Self.article($0.typeName) } ?? "absent"), expected \(rule)"
        case .notInEnum: return "\(value) is not in \(rule)"
        case .notConst: return "\(value) is not \(rule)"
        case .patternMismatch: return "\(value) does not match \(rule)"
        case .outOfRange: return "\(value) breaks \(rule)"
        case .notMultipleOf: return "\(value) is not a multiple of \(rule.dropFirst("multipleOf: ".count)) (\(rule))"
        case .length:
            let size: String
            switch actual {
            case .string(let string): size = "\(string.unicodeScalars.count) characters"
            case .array(let elements): size = "\(elements.count) elements"
            case .object(let members): size = "\(members.count) members"
            default: size = "a size"
            }
            return "\(value) has \(size), breaking \(rule)"
        case .notUnique: return "\(value) breaks \(rule)"
        case .nonFiniteNumber: return "\(value) cannot be written in JSON (\(rule)); send null or a finite number"
        case .unexpectedProperty: return "the plan does not declare this property (\(rule))"
        case .personalDataPresent: return "personal data sent against its rule (\(rule)); apply the rule before sending"
        case .personalDataUnmarked:
            return
                "a value that looks like personal data (\(rule), not shown) is in a property the plan does not mark personal; mark it (\(PersonalMark.suggestion(for: PersonalDataKind(rule)))) or stop sending it"
        case .purposeMismatch:
            let recorded = actual?.stringValue ?? "unknown"
            let planned = String(rule.dropFirst("purpose: ".count))
            let known: [ConsentPurpose] = [.analytics, .advertising, .necessary]
            let argument = known.contains(ConsentPurpose(planned)) ? ".\(planned)" : "\"\(planned)\""
            return
                "recorded with purpose \(recorded), but the plan's event needs purpose \(planned): the client would gate it on the wrong consent and route it to the wrong destinations; track it with .needing(\(argument)) (the generated factory sets it), or change the plan's 'purpose'"
        case .advertisingIdentifierOutsideAdvertising:
            let recorded = actual?.stringValue ?? "unknown"
            return
                "the advertising identifier (\(rule), not shown) travels on an event of purpose \(recorded); it may travel only on events of purpose advertising, which the user's tracking consent gates: leave it out of this event, or send it on an advertising one"
        case .formatMismatch: return "\(value) is not valid for \(rule)"
        case .sentWithoutConsent:
            let answer = actual?.stringValue ?? "unknown"
            guard answer != DeliveredConsent.notRequired.rawValue else {
                return
                    "sent by a client that does not gate its purpose (\(rule)); add the purpose to the client's consentRequired"
            }
            return
                "sent while the user's consent was \(answer) (\(rule)); hold it until the user grants it, and drop it on denial"
        }
    }

    /// What makes two violations of one event the same for a report that counts them: their kind, path and
    /// rule, and for ``Kind/sentWithoutConsent`` the recorded answer too (`not_required` and `denied` call for
    /// different fixes, so they are counted apart), for ``Kind/purposeMismatch`` and
    /// ``Kind/advertisingIdentifierOutsideAdvertising`` the recorded purpose.
    var groupingKey: String {
        let recorded: String
        switch kind {
        case .sentWithoutConsent, .purposeMismatch, .advertisingIdentifierOutsideAdvertising:
            recorded = " " + (actual?.stringValue ?? "")
        default:
            recorded = ""
        }
        return "\(kind.rawValue) \(path) \(rule)\(recorded)"
    }

    /// `track "menu_item_ordered" /properties/quantity: 0 breaks minimum: 1`, or for an event named by its
    /// id, `identify user-42 /properties/plan: required property is missing`.
    public var description: String {
        let event =
            eventKind.matchesByName ? eventKind.printed(eventName) : eventName.isEmpty ? eventKind.rawValue : eventName
        return path.isEmpty ? "\(event): \(message)" : "\(event) \(path): \(message)"
    }

    private var shownValue: String {
        guard let actual else { return "nothing" }
        if isPersonalData { return "a \(actual.typeName) value (personal data, not shown)" }
        if case .double(let double) = actual, !double.isFinite { return "\(double)" }  // jsonString would say null
        let json = actual.jsonString
        return json.count > 80 ? String(json.prefix(77)) + "..." : json
    }

    private static func article(_ typeName: String) -> String {
        switch typeName {
        case "null": return "null"
        case "integer", "array", "object": return "an \(typeName)"
        default: return "a \(typeName)"
        }
    }
}
