import Foundation

/// An event as the client delivers it: what the app said, plus what the client added.
///
/// The client stamps ``messageId``, ``timestamp`` and identity on the caller's thread when the event is
/// tracked; processors may then add ``context``, rewrite ``event`` or choose ``destinations``.
/// Destinations that only care about what the app said read ``event``.
public struct Envelope: Sendable, Hashable {
    /// Who tracked the event: the app, or the client's own machinery (see ``Origin``). (First, so that the
    /// memberwise initializer, which starts with it, never competes with the public one.)
    public var origin: Origin
    /// What the app said.
    public var event: Event
    /// A per-client unique id for this event.
    public var messageId: MessageID
    /// When the event was tracked, from the client's clock.
    public var timestamp: Date
    /// The user id known when the event was tracked, if any. For ``Event/Kind/alias`` events it is the
    /// previous id.
    public var userId: String?
    /// The anonymous id of the device or install, stable for the client's life until ``AnalyticsClient/reset()``.
    public var anonymousId: String
    /// Facts about the app, device or library that processors add, such as `app_version`.
    public var context: [String: PropertyValue]
    /// The names of the destinations this event may reach, or nil for all of them. Set by routing
    /// processors.
    public var destinations: Set<String>?
    /// What the client knew of the user's consent for the event's purpose (``Event/purpose``) when it handed
    /// the event to its destinations, or nil when the client uses no consent at all.
    ///
    /// A client that uses consent (a purpose in ``AnalyticsClient/Configuration/consentRequired``, or any
    /// answer given) sets it on every envelope it delivers: ``DeliveredConsent/granted`` (events held until
    /// the user agreed included), or ``DeliveredConsent/notRequired`` for a purpose it does not gate. A
    /// client without consent leaves it nil and does no per-event work for it. ``DeliveredConsent/denied``
    /// or ``DeliveredConsent/notAsked`` here means the event went out past the client's gate, such as
    /// through a wrapper that calls a destination directly or in a hand-written recording: the test kit's
    /// `EventMatcher.sentWithoutConsent` and `tally validate` report it. Recordings keep it (`"consent"`);
    /// records written before it existed, or by a client without consent, have none.
    public var consent: DeliveredConsent?

    /// The id that names the user: ``userId`` when known, else ``anonymousId``.
    public var distinctId: String { userId ?? anonymousId }

    /// How reports name the event: ``Event/reportName``, and for an alias event also the id it replaces,
    /// `alias user-43 <- anon-1`.
    public var reportName: String {
        guard event.kind == .alias else { return event.reportName }
        return "\(event.reportName) <- \(distinctId)"
    }

    /// Who tracked an event.
    ///
    /// An event tracked while the client was handling another one, from inside a destination, a processor
    /// or ``AnalyticsClient/Configuration/onProblem`` (an `analytics_problem` event, say), is a feedback
    /// event. The client delivers it like any other, marked, so that a destination can leave it out. What
    /// is tracked while handling a feedback event is not delivered: it is dropped and counted under
    /// ``DropReason/feedbackLoop``, so no loop through the client can run away.
    public enum Origin: String, Sendable, Hashable, Codable {
        /// Tracked by app code.
        case app
        /// Tracked from the client's own threads or from `onProblem`, while the client handled an app event
        /// or a problem.
        case feedback
    }
}

extension Envelope {
    /// Creates an envelope. The client makes these; tests and custom destinations may too.
    ///
    /// (It lives in an extension and hands over to the memberwise initializer, whose parameters come in
    /// another order: an initializer that assigns each field itself makes the optimizer copy the whole
    /// envelope once more, retaining and releasing every field, on the caller's thread for every event.)
    public init(
        event: Event, messageId: MessageID, timestamp: Date, userId: String? = nil, anonymousId: String,
        context: [String: PropertyValue] = [:], destinations: Set<String>? = nil, origin: Origin = .app,
        consent: DeliveredConsent? = nil
    ) {
        self.init(
            origin: origin, event: event, messageId: messageId, timestamp: timestamp, userId: userId,
            anonymousId: anonymousId, context: context, destinations: destinations, consent: consent)
    }
}

/// A message id that costs the caller an increment, not a random number.
///
/// It joins a random 64-bit prefix chosen once per client with a 64-bit sequence number, so ids are unique
/// across clients in practice and ordered within one. It prints in UUID form,
/// `8f14e45f-ceea-167a-0000-000000000001`, but it is not an RFC 4122 UUID.
public struct MessageID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The per-client random part.
    public var prefix: UInt64
    /// The position of the event among those the client stamped, starting at 1.
    public var sequence: UInt64

    /// Creates an id from its parts.
    public init(prefix: UInt64, sequence: UInt64) {
        self.prefix = prefix
        self.sequence = sequence
    }

    /// Reads the UUID form that ``description`` writes; nil for any other text.
    public init?(_ text: String) {
        var words: (UInt64, UInt64) = (0, 0)
        var digits = 0
        var position = 0
        for byte in text.utf8 {
            defer { position += 1 }
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            if digits < 16 {
                words.0 = words.0 << 4 | UInt64(value)
            } else {
                words.1 = words.1 << 4 | UInt64(value)
            }
            digits += 1
        }
        guard position == 36, digits == 32 else { return nil }
        self.init(prefix: words.0, sequence: words.1)
    }

    public static func < (lhs: MessageID, rhs: MessageID) -> Bool {
        (lhs.prefix, lhs.sequence) < (rhs.prefix, rhs.sequence)
    }

    /// The UUID form: 32 hexadecimal digits in groups of 8-4-4-4-12.
    public var description: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes = [UInt8](repeating: UInt8(ascii: "-"), count: 36)
        var position = 0
        for (word, shiftStart) in [(prefix, 60), (sequence, 60)] {
            var shift = shiftStart
            while shift >= 0 {
                if position == 8 || position == 13 || position == 18 || position == 23 { position += 1 }
                bytes[position] = digits[Int((word >> UInt64(shift)) & 0xF)]
                position += 1
                shift -= 4
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
