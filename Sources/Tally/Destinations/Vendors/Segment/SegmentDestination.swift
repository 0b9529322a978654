import Foundation

/// Sends events to Segment through a ``SegmentAdapter``, within ``SegmentLimits``.
///
/// Segment's calls are Tally's event kinds, so each event maps to the call of the same name:
///
/// | event | Segment call |
/// |---|---|
/// | ``Event/Kind/track`` | `track(name: name, properties: properties)` |
/// | ``Event/Kind/screen`` | `screen(title: name, category: nil, properties: properties)` |
/// | ``Event/Kind/identify`` | `identify(userId: userId, traits: traits)` |
/// | ``Event/Kind/group`` | `group(groupId: groupId, traits: traits)` |
/// | ``Event/Kind/alias`` | `alias(newId: newId)`; Segment takes the previous id from its own state |
/// | ``AnalyticsClient/reset()`` | `reset()`, through ``reset()`` |
///
/// Properties and traits are nil when there are none. A message that, with the room the SDK's own fields
/// take, is larger than ``SegmentLimits/maximumMessageBytes`` is dropped, and numbers the SDK cannot
/// encode are removed or converted: see ``SegmentLimits``. The size is measured as the SDK writes the
/// message (slashes escaped, numbers with all their digits). The SDK uploads later; wire its
/// `errorHandler` to a ``SegmentErrorReporter`` so that a batch Segment's API refuses is reported.
///
/// ```swift
/// extension Segment.Analytics: @retroactive SegmentAdapter {}
/// ```
///
/// ```swift
/// let analytics = AnalyticsClient(destinations: [SegmentDestination(adapter: segment)])
/// analytics.track("menu_item_ordered", ["item_name": "Pizza"])
/// // segment.track(name: "menu_item_ordered", properties: ["item_name": "Pizza"])
/// ```
public struct SegmentDestination: Destination {
    /// The destination's name. Default `segment`.
    public let name: String
    /// The limits the destination enforces.
    public let limits: SegmentLimits
    /// Where the SDK's errors are turned into problems, when the app wired its `errorHandler` to one.
    public let errors: SegmentErrorReporter?
    private let box: VendorClient<any SegmentAdapter>

    /// Creates a destination calling `adapter`, normally Segment's `Analytics` instance.
    ///
    /// - Parameters:
    ///   - adapter: receives Segment's calls.
    ///   - name: the destination's name. Default `segment`.
    ///   - limits: the limits to enforce. Default: Segment's documented ones.
    ///   - errors: the reporter the SDK's `errorHandler` calls, so that a batch Segment's API refused is
    ///     reported (see ``SegmentErrorReporter``). Default none: the SDK's errors reach only the app's
    ///     handler.
    public init(
        adapter: any SegmentAdapter, name: String = "segment", limits: SegmentLimits = .default,
        errors: SegmentErrorReporter? = nil
    ) {
        self.name = name
        self.limits = limits
        self.errors = errors
        self.box = VendorClient(adapter)
    }

    /// Forgets the signed-in user: Segment's `reset()`, which clears the user id and traits and starts a
    /// new anonymous id. The client calls it on ``AnalyticsClient/reset()``, after the events tracked before the
    /// reset and before those tracked after it.
    public func reset() {
        box.client.reset()
    }

    /// Transforms the event into Segment's call and makes it.
    ///
    /// Numbers Segment's SDK cannot encode are removed or converted first, each with a problem: see
    /// ``SegmentLimits``.
    ///
    /// - Throws: a ``Problem`` with outcome ``Problem/Outcome/dropped`` when the message, with
    ///   ``SegmentLimits/sdkOverheadBytes`` added, is larger than ``SegmentLimits/maximumMessageBytes``;
    ///   nothing is sent then.
    public func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let event = envelope.event
        var problems: [Problem] = []
        let fixed = VendorRules.fixValues(
            event.properties.dictionary, vendor: "Segment", event: event, problems: &problems,
            rule: SegmentLimits.numberRule)
        let size = Self.messageSize(envelope, properties: fixed)
        let limit = limits.maximumMessageBytes - limits.sdkOverheadBytes
        guard size <= limit else {
            throw VendorRules.problem(
                "The Segment message would be \(size) bytes of JSON as Segment's SDK writes it, and the SDK adds about \(limits.sdkOverheadBytes) more; Segment rejects messages over \(limits.maximumMessageBytes) bytes",
                outcome: .dropped, event: event, path: nil)
        }
        problems.forEach(context.report)
        let adapter = box.client
        let properties = fixed.optionalFoundationValue
        switch event.kind {
        case .track: adapter.track(name: event.name, properties: properties)
        case .screen: adapter.screen(title: event.name, category: nil, properties: properties)
        case .identify: adapter.identify(userId: event.userId ?? "", traits: properties)
        case .group: adapter.group(groupId: event.groupId ?? "", traits: properties)
        case .alias: adapter.alias(newId: event.userId ?? "")
        }
        errors?.handedOver(event.reportName, context: context)
    }

    /// The size in bytes of the message the destination hands to Segment, as Segment's SDK writes it,
    /// without the fields the SDK adds (``SegmentLimits/sdkOverheadBytes`` stands for those). See
    /// ``SegmentLimits``.
    static func messageSize(_ envelope: Envelope) -> Int {
        messageSize(envelope, properties: envelope.event.properties.dictionary)
    }

    /// The size of the message with `properties` in place of the event's.
    static func messageSize(_ envelope: Envelope, properties: [String: PropertyValue]) -> Int {
        let event = envelope.event
        var message: [String: PropertyValue] = ["type": .string(event.kind.rawValue)]
        switch event.kind {
        case .track:
            message["event"] = .string(event.name)
            message["properties"] = .object(properties)
        case .screen:
            message["name"] = .string(event.name)
            message["properties"] = .object(properties)
        case .identify:
            message["userId"] = .string(event.userId ?? "")
            message["traits"] = .object(properties)
        case .group:
            message["groupId"] = .string(event.groupId ?? "")
            message["traits"] = .object(properties)
        case .alias:
            message["userId"] = .string(event.userId ?? "")
            message["previousId"] = .string(envelope.distinctId)
        }
        var writer = JSONWriter()
        writer.writeObject(message)
        return writer.bytes.count + sdkExtraBytes(.object(message))
    }

    /// How many more bytes Segment's SDK writes for `value` than Tally's compact JSON: one for each `/`
    /// in a string or key (the SDK writes `\/`), and for each number the difference between Tally's text
    /// and the SDK's, which writes the `Decimal` that `NSNumber.decimalValue` gives on this platform with
    /// all its digits (`1e100` is 101 characters; on Linux `123456789.123` is `123456789.1230000128`, and
    /// an integer from 2^23 up gains a fraction: `123456789012345` is `123456789012344.99584`).
    static func sdkExtraBytes(_ value: PropertyValue) -> Int {
        switch value {
        case .string(let string):
            return slashes(in: string)
        case .double(let double):
            var writer = JSONWriter()
            writer.writeDouble(double)
            return NSNumber(value: double).decimalValue.description.utf8.count - writer.bytes.count
        case .bigNumber(let number):
            guard let decimal = number.exactDecimal else { return 0 }
            return decimal.description.utf8.count - number.text.utf8.count
        case .array(let elements):
            return elements.reduce(0) { $0 + sdkExtraBytes($1) }
        case .object(let members):
            return members.reduce(0) { $0 + slashes(in: $1.key) + sdkExtraBytes($1.value) }
        case .int(let int) where Int64(int).magnitude >= UInt64(1) << 20:
            // Smaller integers convert exactly on every platform.
            return NSNumber(value: int).decimalValue.description.utf8.count - String(int).utf8.count
        case .int, .bool, .null:
            return 0
        }
    }

    private static func slashes(in string: String) -> Int {
        string.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) }
    }
}
