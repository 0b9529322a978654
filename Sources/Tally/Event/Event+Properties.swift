extension Event {
    /// An event's properties: string keys and ``PropertyValue`` values, read and written like a dictionary.
    ///
    /// ```swift
    /// var event = Event("menu_item_ordered", ["item_name": "Pizza"])
    /// event.properties["quantity"] = 2
    /// let name = event.properties["item_name"]                               // .string("Pizza")
    /// let merged = event.properties == ["item_name": "Pizza", "quantity": 2]   // true
    /// for (key, value) in event.properties { print(key, value) }
    /// ```
    ///
    /// It is a dictionary of the event's own properties over a layer that many events share: the super
    /// properties a ``SuperPropertiesProcessor`` adds. Adding that layer to an event costs a reference, not
    /// a new hash table, so an app's every event does not pay for hashing and freeing a merged copy. What
    /// you read is always the merged view: a key of the event's own hides the same key in the shared
    /// layer, ``count`` and iteration see each key once, and two values are equal, hash the same and encode
    /// the same when they hold the same keys and values, however they are layered.
    ///
    /// Code that needs a plain `[String: PropertyValue]` reads ``dictionary``, which builds one only when
    /// the event has a shared layer.
    public struct Properties: Sendable {
        /// The event's own properties: what the app said, and what processors set.
        package private(set) var own: [String: PropertyValue]
        /// Properties shared with other events, each hidden by a key of ``own``; empty for most events.
        package private(set) var shared: [String: PropertyValue]

        /// Creates properties that hold `dictionary`.
        public init(_ dictionary: [String: PropertyValue] = [:]) {
            self.own = dictionary
            self.shared = [:]
        }

        /// Properties with `shared` under `own`.
        package init(own: [String: PropertyValue], shared: [String: PropertyValue]) {
            self.own = own
            self.shared = shared
        }

        /// The value for `key`, or nil. Setting nil removes the key.
        public subscript(key: String) -> PropertyValue? {
            get {
                if let value = own[key] { return value }
                return shared.isEmpty ? nil : shared[key]
            }
            set {
                if let newValue {
                    own[key] = newValue
                } else {
                    removeValue(forKey: key)
                }
            }
        }

        /// How many keys there are, each counted once.
        public var count: Int {
            if shared.isEmpty { return own.count }
            var count = own.count
            for key in shared.keys where own.index(forKey: key) == nil { count += 1 }
            return count
        }

        /// Whether there are no properties.
        public var isEmpty: Bool { own.isEmpty && shared.isEmpty }

        /// The keys, in no particular order.
        public var keys: [String] { map(\.key) }

        /// The values, in no particular order.
        public var values: [PropertyValue] { map(\.value) }

        /// The properties as one dictionary. Free when there is no shared layer; otherwise a merged copy.
        public var dictionary: [String: PropertyValue] {
            guard !shared.isEmpty else { return own }
            return own.merging(shared) { own, _ in own }
        }

        /// Sets `value` for `key` and returns the value it replaces, if any.
        @discardableResult
        public mutating func updateValue(_ value: PropertyValue, forKey key: String) -> PropertyValue? {
            let old = self[key]
            own[key] = value
            return old
        }

        /// Removes `key` and returns its value, if it had one.
        @discardableResult
        public mutating func removeValue(forKey key: String) -> PropertyValue? {
            if !shared.isEmpty, shared.index(forKey: key) != nil {
                // A shared key can only be hidden by flattening: a rare path (a processor that removes a
                // super property).
                flatten()
            }
            return own.removeValue(forKey: key)
        }

        /// Sets every key of `other`, replacing existing values.
        public mutating func merge(_ other: [String: PropertyValue]) {
            own.merge(other) { _, new in new }
        }

        /// Sets each key of `other`, keeping the value already there when `combine` says so.
        public mutating func merge(
            _ other: [String: PropertyValue],
            uniquingKeysWith combine: (PropertyValue, PropertyValue) throws -> PropertyValue
        ) rethrows {
            for (key, value) in other {
                if let existing = self[key] {
                    own[key] = try combine(existing, value)
                } else {
                    own[key] = value
                }
            }
        }

        /// Properties with `transform` applied to every value.
        public func mapValues(_ transform: (PropertyValue) throws -> PropertyValue) rethrows -> Properties {
            Properties(try dictionary.mapValues(transform))
        }

        /// The properties for which `isIncluded` returns true.
        public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Properties {
            Properties(try dictionary.filter { try isIncluded(($0.key, $0.value)) })
        }

        /// Removes every property.
        public mutating func removeAll() {
            own.removeAll()
            shared = [:]
        }

        /// Adds `layer` under the event's own properties: a key the event has keeps its value. When the
        /// event has no shared layer yet, which is the usual case, this only stores a reference to `layer`.
        package mutating func addShared(_ layer: [String: PropertyValue]) {
            if shared.isEmpty {
                shared = layer
            } else {
                // A second layer (two super-properties processors): the first one's keys win.
                shared.merge(layer) { first, _ in first }
            }
        }

        /// Moves the shared layer into the event's own properties.
        private mutating func flatten() {
            guard !shared.isEmpty else { return }
            own.merge(shared) { own, _ in own }
            shared = [:]
        }
    }
}

extension Event.Properties: Sequence {
    public typealias Element = (key: String, value: PropertyValue)

    /// Iterates the event's own properties, then the shared ones its own keys do not hide.
    public struct Iterator: IteratorProtocol {
        private var ownIterator: Dictionary<String, PropertyValue>.Iterator
        private var sharedIterator: Dictionary<String, PropertyValue>.Iterator
        private let own: [String: PropertyValue]

        init(_ properties: Event.Properties) {
            own = properties.own
            ownIterator = properties.own.makeIterator()
            sharedIterator = properties.shared.makeIterator()
        }

        public mutating func next() -> Element? {
            if let element = ownIterator.next() { return element }
            while let element = sharedIterator.next() {
                if own.index(forKey: element.key) == nil { return element }
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }

    public var underestimatedCount: Int { own.count }
}

extension Event.Properties: ExpressibleByDictionaryLiteral {
    /// Creates properties from a literal. Like a dictionary literal, a key written twice is a programming
    /// error that stops the program.
    public init(dictionaryLiteral elements: (String, PropertyValue)...) {
        self.init(Dictionary(uniqueKeysWithValues: elements))
    }
}

extension Event.Properties: Hashable {
    /// Equal when both hold the same keys with equal values, however they are layered.
    public static func == (lhs: Event.Properties, rhs: Event.Properties) -> Bool {
        if lhs.shared.isEmpty && rhs.shared.isEmpty { return lhs.own == rhs.own }
        guard lhs.count == rhs.count else { return false }
        return lhs.allSatisfy { rhs[$0.key] == $0.value }
    }

    /// Hashes as the merged dictionary does.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(dictionary)
    }
}

extension Event.Properties: Codable {
    /// Reads a JSON object (any keyed form a dictionary reads).
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([String: PropertyValue].self))
    }

    /// Writes the merged properties as one object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(dictionary)
    }
}

extension Event.Properties: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The merged properties, written as a dictionary is.
    public var description: String { dictionary.description }

    public var debugDescription: String { dictionary.debugDescription }

    /// The merged properties, reflected as a dictionary, so dumps and diffs show one dictionary.
    public var customMirror: Mirror { Mirror(reflecting: dictionary) }
}

extension Event.Properties {
    /// These properties as one compact JSON object with keys sorted. See `Dictionary.jsonString`.
    public var jsonString: String {
        var writer = JSONWriter()
        writer.writeObject(self)
        return writer.string
    }
}
