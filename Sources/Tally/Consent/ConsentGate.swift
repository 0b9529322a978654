/// The worker's view of the user's consent, and the events that wait for an answer.
///
/// Only the worker thread touches it. It learns each answer from a marker in the client's queue, so an
/// answer applies exactly to the events tracked after it, whatever the worker was doing when the app
/// gave it.
struct ConsentGate {
    /// An event that waits for the user's answer, already through the input limits and the processors.
    struct HeldEvent {
        var envelope: Envelope
        var sequence: UInt64
    }

    /// The answers given so far, by purpose.
    private var answers: [ConsentPurpose: ConsentStatus]
    /// Purposes that wait for an answer when there is none.
    private let required: Set<ConsentPurpose>
    /// True when every event flows: nothing required, nothing answered (the common case, checked first).
    private(set) var isOpen: Bool
    /// The purpose ``answer(for:)`` was last asked about, and its answer; nil after an answer changes.
    private var last: (purpose: ConsentPurpose, answer: DeliveredConsent)?
    /// The waiting events, in the order they were tracked.
    private(set) var held: [HeldEvent] = []
    let capacity: Int

    init(required: Set<ConsentPurpose>, answers: [ConsentPurpose: ConsentStatus], capacity: Int) {
        self.required = required
        self.answers = answers
        self.capacity = max(0, capacity)
        self.isOpen = required.isEmpty && answers.isEmpty
    }

    /// What a delivered event of `purpose` carries as its ``Envelope/consent``: the user's answer, else
    /// ``DeliveredConsent/notAsked`` for a required purpose, else ``DeliveredConsent/notRequired``.
    ///
    /// The last purpose asked about and its answer are kept until the next answer, so a run of events of
    /// one purpose, nearly every app's, costs a string comparison each instead of hashing the purpose.
    mutating func answer(for purpose: ConsentPurpose) -> DeliveredConsent {
        if let last, last.purpose == purpose { return last.answer }
        let answer: DeliveredConsent =
            if let answer = answers[purpose] {
                DeliveredConsent(answer)
            } else {
                required.contains(purpose) ? .notAsked : .notRequired
            }
        last = (purpose, answer)
        return answer
    }

    /// Whether the hold has no room for another event.
    var isFull: Bool { held.count >= capacity }

    /// Keeps an event until the user answers. Check ``isFull`` first.
    mutating func hold(_ envelope: consuming Envelope, sequence: UInt64) {
        held.append(HeldEvent(envelope: envelope, sequence: sequence))
    }

    /// Records the user's answer for `purpose`, and returns the events it settles: those it releases when
    /// granted, in order; those it drops when denied; none while the user has still not answered.
    mutating func answer(_ status: ConsentStatus, for purpose: ConsentPurpose) -> [HeldEvent] {
        answers[purpose] = status
        last = nil
        isOpen = false
        guard status != .notAsked, held.contains(where: { $0.envelope.event.purpose == purpose }) else { return [] }
        var settled: [HeldEvent] = []
        var waiting: [HeldEvent] = []
        for event in held {
            guard event.envelope.event.purpose == purpose else {
                waiting.append(event)
                continue
            }
            var released = event
            if status == .granted { released.envelope.consent = .granted }
            settled.append(released)
        }
        held = waiting
        return settled
    }

    /// Empties the hold (the client is stopping); returns how many events it held.
    mutating func dropAll() -> Int {
        defer { held = [] }
        return held.count
    }
}
