#if Collector
import Tally

/// The write requests the collector refused: how many, and the last one, for `GET /tally/status` and the
/// live page.
///
/// A client that is refused usually drops what it sent (Segment's libraries drop a batch answered 400), so a
/// refusal is events lost on the way to the collector. Each one is also logged, at warning level, with its
/// reason.
final class RefusedRequests: Sendable {
    /// One refused request and why.
    struct Refusal: Sendable, Equatable {
        /// The request, as `POST /v1/batch`.
        var request: String
        /// The HTTP status it was answered with.
        var status: Int
        /// The error's code, such as `too_large`.
        var code: String
        /// What was wrong.
        var message: String

        /// `{"request":"POST /v1/batch","status":400,"code":"too_large","message":"…"}`.
        func write(to writer: inout JSONWriter) {
            writer.writeRaw(#"{"request":"#)
            writer.writeString(request)
            writer.writeRaw(#","status":\#(status),"code":"#)
            writer.writeString(code)
            writer.writeRaw(#","message":"#)
            writer.writeString(message)
            writer.writeRaw("}")
        }
    }

    private let state = Locked<(count: Int64, last: Refusal?)>((0, nil))

    /// Counts `refusal`.
    ///
    /// - Returns: how many requests have been refused, this one included.
    @discardableResult
    func record(_ refusal: Refusal) -> Int64 {
        state.withLock { state in
            state.count += 1
            state.last = refusal
            return state.count
        }
    }

    /// How many requests have been refused, and the last one.
    var snapshot: (count: Int64, last: Refusal?) { state.current }

    /// `{"requests":N,"last":{…}}`, `last` null until a request is refused.
    static func json(count: Int64, last: Refusal?, into writer: inout JSONWriter) {
        writer.writeRaw(#"{"requests":\#(count),"last":"#)
        if let last { last.write(to: &writer) } else { writer.writeRaw("null") }
        writer.writeRaw("}")
    }
}
#endif
