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

    /// The JSON pointer to property `key` of an event: `/properties/<key>`, escaped.
    static func propertyPath(_ key: String) -> String { "/properties/" + JSONPointer.escape(key) }

    /// The JSON pointer to member `key` below `path`.
    static func path(_ path: String, _ key: String) -> String { path + "/" + JSONPointer.escape(key) }

    /// A `vendor_limit` problem about `event`.
    static func problem(
        _ message: String, outcome: Problem.Outcome = .sanitized, event: Event, path: String?
    ) -> Problem {
        Problem(.vendorLimit, message, outcome: outcome, eventName: event.problemName, path: path)
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
                    event: event, path: propertyPath(key)))
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
