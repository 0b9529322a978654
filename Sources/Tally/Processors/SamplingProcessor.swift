/// Keeps a deterministic fraction of events; the rest are counted under ``DropReason/filtered(by:)`` as
/// `sample`.
///
/// The decision hashes a key with the seed, so the same seed and key always decide the same way:
/// - ``Unit/user`` keys on ``Envelope/distinctId``: a sampled user's events are all kept or all dropped.
/// - ``Unit/event`` keys on the event's position in the client's sequence: reproducible run to run for the
///   same order of events.
///
/// ```swift
/// let processors: [any Processor] = [
///     .sample(rate: 0.1, seed: 42),               // one user in ten
///     .sample(rate: 0.5, seed: 7, by: .event),    // every other event, roughly
/// ]
/// ```
public struct SamplingProcessor: Processor {
    /// What the decision is made for.
    public enum Unit: Sendable, Hashable {
        /// All events of a user are kept or dropped together.
        case user
        /// Each event is decided on its own.
        case event
    }

    /// The fraction kept, from 0 (none) to 1 (all).
    public let rate: Double
    /// The seed mixed into every decision.
    public let seed: UInt64
    /// What the decision is made for.
    public let unit: Unit

    /// Creates a sampler. `rate` is clamped to 0...1; NaN keeps nothing.
    public init(rate: Double, seed: UInt64, by unit: Unit = .user) {
        self.rate = rate.isNaN ? 0 : min(1, max(0, rate))
        self.seed = seed
        self.unit = unit
    }

    public var name: String { "sample" }

    public func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
        keeps(envelope) ? .keep : .drop
    }

    /// Whether this envelope is in the sample.
    public func keeps(_ envelope: Envelope) -> Bool {
        if rate >= 1 { return true }
        if rate <= 0 { return false }
        let key: UInt64
        switch unit {
        case .user: key = Self.fnv1a(envelope.distinctId)
        case .event: key = envelope.messageId.sequence
        }
        let hash = Self.mix(key ^ seed)
        // 2^53 as a Double literal: as an Int shift it is 0 on a 32-bit watch.
        return Double(hash >> 11) / 0x1p53 < rate
    }

    /// FNV-1a over UTF-8: stable across runs and platforms, unlike `Hasher`.
    static func fnv1a(_ string: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in string.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The SplitMix64 finaliser.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Processor where Self == SamplingProcessor {
    /// Keeps a deterministic fraction of events. See ``SamplingProcessor``.
    public static func sample(rate: Double, seed: UInt64, by unit: SamplingProcessor.Unit = .user) -> SamplingProcessor
    {
        SamplingProcessor(rate: rate, seed: seed, by: unit)
    }
}
