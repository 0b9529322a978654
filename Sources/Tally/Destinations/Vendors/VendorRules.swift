/// Building blocks the vendor destinations share: measuring and cutting strings, JSON pointers, and the
/// problems they report.
enum VendorRules {
    /// A string's length as the vendors' SDKs count it: UTF-16 code units (`NSString.length`). For text
    /// without emoji or other characters outside the Basic Multilingual Plane this is the number of
    /// characters.
    static func length(_ string: String) -> Int { string.utf16.count }

    /// The longest prefix of whole `Character`s of `string` whose ``length(_:)`` is at most `limit`.
    static func truncate(_ string: String, toLength limit: Int) -> String {
        guard string.utf16.count > limit else { return string }
        return string.prefix(wholeCharactersWithin: limit) { $0.utf16.count }
    }

    /// The JSON pointer to member `key` below `path`.
    static func path(_ path: String, _ key: String) -> String { path + "/" + JSONPointer.escape(key) }

    /// A `vendor_limit` problem about `event`.
    static func problem(
        _ message: String, outcome: Problem.Outcome = .sanitized, event: Event, path: String?
    ) -> Problem {
        Problem(.vendorLimit, message, outcome: outcome, eventName: event.reportName, path: path)
    }

    /// `text` in double quotes for a message, shortened to its first 64 characters when longer.
    static func quoted(_ text: String) -> String {
        text.count > 64 ? "\"\(text.prefix(64))…\"" : "\"\(text)\""
    }

    /// Up to five keys for a message, then how many more.
    static func list(_ keys: [String]) -> String {
        let shown = keys.prefix(5).map { quoted($0) }.joined(separator: ", ")
        return keys.count > 5 ? "\(shown) and \(keys.count - 5) more" : shown
    }

    /// Puts the value a vendor call takes from the event itself (a screen name, a group id) into its
    /// parameters under `key`.
    ///
    /// The event's own value wins: a property with the same key and a different value is replaced, and
    /// one problem says so.
    static func insert(
        _ value: PropertyValue, forKey key: String, into properties: inout [String: PropertyValue], vendor: String,
        event: Event, problems: inout [Problem]
    ) {
        if let existing = properties[key], existing != value {
            problems.append(
                problem(
                    "\(vendor) takes \(quoted(key)) from the \(event.kind.rawValue) event's name; the property of that name was replaced",
                    event: event, path: event.propertyPath(key)))
        }
        properties[key] = value
    }

    /// Keeps at most `limit` properties: the keys in `required` first, then the others in sorted key
    /// order. Returns the keys removed, in sorted order.
    static func keepFirst(
        _ limit: Int, of properties: inout [String: PropertyValue], required: Set<String> = []
    ) -> [String] {
        guard properties.count > limit else { return [] }
        let requiredKeys = properties.keys.filter { required.contains($0) }.sorted()
        let others = properties.keys.filter { !required.contains($0) }.sorted()
        let kept = Set((requiredKeys + others).prefix(max(0, limit)))
        let removed = (requiredKeys + others).filter { !kept.contains($0) }.sorted()
        for key in removed { properties.removeValue(forKey: key) }
        return removed
    }
}

extension Dictionary where Key == String, Value == PropertyValue {
    /// These properties for an optional vendor parameter: nil when empty, else their Foundation form.
    var optionalFoundationValue: [String: Any]? { isEmpty ? nil : foundationValue }
}

extension VendorRules {
    /// What a vendor's rule does with one value it cannot take as it is.
    enum ValueFix {
        /// The value goes through unchanged.
        case keep
        /// The value is replaced; the text says how, for the problem.
        case replace(PropertyValue, String)
        /// The value is removed (a member from its object, an element from its array); the text says why.
        case remove(String)
    }

    /// Applies `rule` to every value of `properties`, nested ones included, and reports one sanitized
    /// problem for each value replaced or removed, with the path to it (`/properties/list/2/price`; an
    /// array index is the element's position in the event as it was tracked).
    static func fixValues(
        _ properties: [String: PropertyValue], vendor: String, event: Event, problems: inout [Problem],
        rule: (PropertyValue) -> ValueFix
    ) -> [String: PropertyValue] {
        var result: [String: PropertyValue] = [:]
        for key in properties.keys.sorted() {
            if let value = fixValue(
                properties[key]!, path: event.propertyPath(key), vendor: vendor, event: event, problems: &problems,
                rule: rule)
            {
                result[key] = value
            }
        }
        return result
    }

    /// `value` after `rule`, its members and elements too; nil when it is removed.
    private static func fixValue(
        _ value: PropertyValue, path: String, vendor: String, event: Event, problems: inout [Problem],
        rule: (PropertyValue) -> ValueFix
    ) -> PropertyValue? {
        switch value {
        case .object(let members):
            var result: [String: PropertyValue] = [:]
            for key in members.keys.sorted() {
                if let member = fixValue(
                    members[key]!, path: Self.path(path, key), vendor: vendor, event: event, problems: &problems,
                    rule: rule)
                {
                    result[key] = member
                }
            }
            return .object(result)
        case .array(let elements):
            var result: [PropertyValue] = []
            for (index, element) in elements.enumerated() {
                if let element = fixValue(
                    element, path: path + "/" + String(index), vendor: vendor, event: event, problems: &problems,
                    rule: rule)
                {
                    result.append(element)
                }
            }
            return .array(result)
        default:
            switch rule(value) {
            case .keep:
                return value
            case .replace(let replacement, let reason):
                problems.append(problem("\(vendor): \(reason)", event: event, path: path))
                return replacement
            case .remove(let reason):
                problems.append(problem("\(vendor): \(reason)", event: event, path: path))
                return nil
            }
        }
    }
}

extension VendorRules {
    /// The rule for an SDK that takes no big number, or (`keepingDecimals`) only those a `Decimal` holds
    /// exactly: any other big number becomes the nearest double when that is finite, and is removed when
    /// it is beyond the largest double.
    static func bigNumberRule(keepingDecimals: Bool) -> (PropertyValue) -> ValueFix {
        { value in
            guard case .bigNumber(let number) = value else { return .keep }
            if keepingDecimals, number.exactDecimal != nil { return .keep }
            let double = number.doubleValue
            guard double.isFinite else {
                return .remove("\(quoted(number.text)) is beyond the largest double; the value was removed")
            }
            return .replace(
                .double(double),
                "\(quoted(number.text)) cannot be sent as it is; it was converted to the nearest double, \(double)")
        }
    }
}
