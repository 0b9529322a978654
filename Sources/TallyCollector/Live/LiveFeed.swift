#if Collector
import Tally

/// Pushes every committed event to the viewers of the live page, as server-sent events.
///
/// Each viewer has a buffer of at most ``capacity`` messages. A viewer that reads slower than events arrive
/// loses the oldest ones, never the collector's memory: what it lost is counted and sent to it as a
/// `skipped` event, so the page can say so. Every ``heartbeat`` each viewer gets a comment line, which keeps
/// proxies from closing an idle stream and lets the collector notice a viewer that has gone.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
final class LiveFeed: Sendable {
    /// One message of the stream.
    enum Message: Sendable {
        /// A stored event, encoded once for every viewer.
        case event(id: Int64, json: [UInt8], session: String)
        /// Events of a session (nil: all) were deleted.
        case deleted(session: String?)
        /// The collector refused a write request: the JSON of ``RefusedRequests``' count and last refusal.
        case refused(json: [UInt8])
        case heartbeat
    }

    private struct Viewer {
        var filter: EventFilter
        var continuation: AsyncStream<Message>.Continuation
        var skipped = 0
    }

    private struct State {
        var viewers: [UInt64: Viewer] = [:]
        var next: UInt64 = 0
        var closed = false
        var heartbeat: Task<Void, Never>?
    }

    /// Messages buffered per viewer.
    let capacity: Int
    /// How often a heartbeat goes out.
    let heartbeat: Duration
    private let state = Locked(State())
    private let tasks: CollectorTasks

    init(capacity: Int, heartbeat: Duration, tasks: CollectorTasks) {
        self.capacity = max(1, capacity)
        self.heartbeat = heartbeat
        self.tasks = tasks
    }

    /// How many viewers are connected.
    var viewerCount: Int { state.withLock { $0.viewers.count } }

    /// Adds a viewer of the events `filter` selects.
    ///
    /// - Returns: its token, for ``takeSkipped(_:)`` and ``remove(_:)``, and its messages; nil when the feed
    ///   is closed.
    func subscribe(_ filter: EventFilter) -> (token: UInt64, messages: AsyncStream<Message>)? {
        let (stream, continuation) = AsyncStream<Message>.makeStream(bufferingPolicy: .bufferingNewest(capacity))
        let token = state.withLock { state -> UInt64? in
            guard !state.closed else { return nil }
            state.next += 1
            state.viewers[state.next] = Viewer(filter: filter, continuation: continuation)
            if state.heartbeat == nil { state.heartbeat = tasks.spawn { [weak self] in await self?.beat() } }
            return state.next
        }
        guard let token else {
            continuation.finish()
            return nil
        }
        continuation.onTermination = { [weak self] _ in self?.remove(token) }
        return (token, stream)
    }

    /// Sends committed events to the viewers whose filter selects them.
    func publish(_ events: [StoredEvent]) {
        state.withLock { state in
            guard !state.viewers.isEmpty else { return }
            for event in events {
                var json: [UInt8]?
                for (token, viewer) in state.viewers where viewer.filter.matches(event) {
                    if json == nil { json = event.json }
                    if case .dropped = viewer.continuation.yield(
                        .event(id: event.id, json: json!, session: event.session))
                    {
                        state.viewers[token]?.skipped += 1
                    }
                }
            }
        }
    }

    /// Tells every viewer that the events of `session` (all events when nil) were deleted.
    func deleted(session: String?) {
        send(.deleted(session: session))
    }

    /// Tells every viewer that the collector refused a write request, the `count`th so far.
    func refused(count: Int64, _ refusal: RefusedRequests.Refusal) {
        var writer = JSONWriter()
        RefusedRequests.json(count: count, last: refusal, into: &writer)
        send(.refused(json: writer.bytes))
    }

    /// How many messages `token`'s viewer lost since the last call.
    func takeSkipped(_ token: UInt64) -> Int {
        state.withLock { state in
            defer { state.viewers[token]?.skipped = 0 }
            return state.viewers[token]?.skipped ?? 0
        }
    }

    /// Forgets a viewer (its stream has ended).
    func remove(_ token: UInt64) {
        let viewer = state.withLock { $0.viewers.removeValue(forKey: token) }
        viewer?.continuation.finish()
    }

    /// Ends every stream and refuses new viewers: the collector is stopping.
    func close() {
        let (viewers, heartbeat) = state.withLock { state in
            state.closed = true
            defer {
                state.viewers = [:]
                state.heartbeat = nil
            }
            return (Array(state.viewers.values), state.heartbeat)
        }
        heartbeat?.cancel()
        for viewer in viewers { viewer.continuation.finish() }
    }

    private func send(_ message: Message) {
        state.withLock { state in
            for (token, viewer) in state.viewers {
                if case .dropped = viewer.continuation.yield(message) { state.viewers[token]?.skipped += 1 }
            }
        }
    }

    /// Sends a heartbeat every ``heartbeat`` until the feed is closed.
    private func beat() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: heartbeat) } catch { return }
            send(.heartbeat)
        }
    }
}
#endif
