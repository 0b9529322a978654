#if Delivery
import Foundation
import Tally

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DeliveryEngine {
    /// The sender thread: waits for a reason to send (``HTTPDestination/Configuration/flushAt`` events
    /// queued, the interval, a flush), then sends the oldest batch, one request at a time.
    func runSender() {
        while true {
            monitor.lock()
            while true {
                if stopping {
                    let flushes = flushesToSend
                    flushesToSend.removeAll()
                    monitor.unlock()
                    flushes.forEach { $0.finish() }
                    return
                }
                let now = clock.now()
                if let until = backoffUntil, until > now {
                    // Nothing is sent before the back-off ends: a flush handed over meanwhile (the writer's
                    // hand-over wakes this thread) returns now rather than at its deadline.
                    flushesToSend.forEach { $0.finish() }
                    flushesToSend.removeAll()
                    monitor.wait(senderWakes)
                    continue
                }
                backoffUntil = nil
                if queuedCount == 0 && !flushesToSend.isEmpty {
                    flushesToSend.forEach { $0.finish() }
                    flushesToSend.removeAll()
                }
                if queuedCount > 0
                    && (!flushesToSend.isEmpty || queuedCount >= configuration.flushAt || now >= nextIntervalAt)
                {
                    break
                }
                if queuedCount > 0 && armedIntervalAt != nextIntervalAt {
                    armedIntervalAt = nextIntervalAt
                    wakeSender(at: nextIntervalAt)
                }
                monitor.wait(senderWakes)
            }
            inFlightThrough = .max  // the writer evicts nothing while the batch is chosen
            monitor.unlock()
            sendOldestBatch()
        }
    }

    /// Reads the oldest batch, sends it and acts on the answer; a 400 or 413 splits it into parts sent
    /// one after the other.
    private func sendOldestBatch() {
        let overhead = SegmentMessage.batchOverhead(messages: configuration.maximumBatchEvents)
        let messages: [EventQueue.Message]
        do {
            messages = try storage.oldest(
                limit: configuration.maximumBatchEvents, maximumBytes: configuration.maximumBatchBytes - overhead)
        } catch {
            report(
                Problem(
                    .storageFailed, "The queue could not be read (\(error)); sending is retried", outcome: .reported))
            backOff(Double(configuration.retry.baseDelay), giveUpFlushes: true)
            return
        }
        monitor.lock()
        let first = messages.first?.id ?? .max
        flushesToSend.removeAll { flush in
            guard flush.target < first else { return false }
            flush.finish()
            return true
        }
        inFlightThrough = messages.last?.id ?? 0
        if messages.isEmpty { queuedCount = 0 }
        if first != retryFirstId {
            retryFirstId = first
            retryCount = 0
            backoffCount = 0
        }
        monitor.unlock()
        guard !messages.isEmpty else { return }

        var parts: [ArraySlice<EventQueue.Message>] = [messages[...]]
        while let part = parts.first {
            parts.removeFirst()
            let whole = part.count == messages.count
            let (status, retryAfter, failure) = post(part, retryCount: whole ? retryCount : 0)
            switch RetryPolicy.decision(for: status) {
            case .delivered:
                guard remove(part, dropping: nil) else { return }
            case .retry:
                retry(part, status: status, retryAfter: retryAfter, failure: failure)
                return
            case .isolateRefused, .halve:
                if part.count > 1 {
                    let middle = part.startIndex + part.count / 2
                    parts.insert(contentsOf: [part[..<middle], part[middle...]], at: 0)
                } else {
                    let why = status == 413 ? "as too large" : "as invalid"
                    guard
                        remove(
                            part,
                            dropping: Problem(
                                .refusedByServer,
                                "The server refused this event \(why) (HTTP \(status ?? 0)); it was dropped",
                                outcome: .dropped))
                    else { return }
                }
            case .refuse:
                guard
                    remove(
                        part,
                        dropping: Problem(
                            .refusedByServer,
                            "The server refused a batch of \(part.count) events (HTTP \(status ?? 0)), an answer that is not retried; they were dropped",
                            outcome: .dropped))
                else { return }
            }
            if monitor.withLock({ stopping }) { break }
        }
        monitor.withLock {
            inFlightThrough = 0
            nextIntervalAt = clock.now() + configuration.flushInterval
            if queuedCount > 0 { monitor.signal(senderWakes) }
        }
    }

    /// Sends one batch; returns the status (nil without an answer), the `Retry-After` value, and the error.
    private func post(
        _ part: ArraySlice<EventQueue.Message>, retryCount: Int
    ) -> (status: Int?, retryAfter: String?, failure: (any Error)?) {
        var body: [UInt8] = []
        body.reserveCapacity(part.reduce(SegmentMessage.batchOverhead(messages: part.count)) { $0 + $1.payload.count })
        body.append(contentsOf: SegmentMessage.batchOpening)
        for (index, message) in part.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: message.payload)
        }
        body.append(contentsOf: SegmentMessage.batchClosing(sentAt: configuration.now()))

        var request = URLRequest(url: configuration.endpoint, timeoutInterval: configuration.requestTimeout)
        request.httpMethod = "POST"
        for (name, value) in configuration.headers { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        request.setValue(String(retryCount), forHTTPHeaderField: "X-Retry-Count")
        request.setValue("tally/\(HTTPDestination.libraryVersion)", forHTTPHeaderField: "User-Agent")
        if configuration.gzip, let compressed = Gzip.compress(body) {
            request.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
            request.httpBody = compressed
        } else {
            request.httpBody = Data(body)
        }
        monitor.withLock { statistics.requests += 1 }
        do {
            let response = try configuration.transport.send(request)
            return (response.statusCode, response.header("Retry-After"), nil)
        } catch {
            return (nil, nil, error)
        }
    }

    /// `Basic` with the write key as user name and an empty password.
    private var authorization: String {
        "Basic " + Data("\(configuration.writeKey):".utf8).base64EncodedString()
    }

    /// Removes a part from the queue after the server answered for it: delivered, or dropped with `problem`.
    /// Returns false when the queue could not remove it: the part stays queued (to be sent again, a
    /// duplicate the server drops by its message ids) and the sender backs off.
    @discardableResult
    private func remove(
        _ part: ArraySlice<EventQueue.Message>, dropping problem: Problem?, reason: DropReason = .refusedByServer
    ) -> Bool {
        guard let first = part.first?.id, let last = part.last?.id else { return true }
        do {
            try storage.delete(from: first, through: last)
        } catch {
            report(
                Problem(
                    .storageFailed,
                    "The server answered for \(part.count) events but the queue could not remove them (\(error)); they will be sent again",
                    outcome: .reported))
            let attempt = monitor.withLock {
                backoffCount += 1
                return backoffCount
            }
            backOff(
                configuration.retry.backoff(attempt: attempt - 1, random: Double.random(in: 0..<1)), giveUpFlushes: true
            )
            return false
        }
        let bytes = part.reduce(0) { $0 + $1.payload.count }
        let recovered = monitor.withLock {
            queuedCount -= part.count
            queuedBytes -= bytes
            if queuedCount <= configuration.maximumQueuedEvents && queuedBytes <= configuration.maximumQueuedBytes {
                evicting = false
            }
            if problem == nil {
                statistics.delivered += part.count
                statistics.batchesDelivered += 1
            }
            if first == retryFirstId || problem == nil {
                retryCount = 0
                backoffCount = 0
            }
            defer { if problem == nil { sendFailing = false } }
            return problem == nil && sendFailing
        }
        if recovered {
            report(Problem(.sendFailed, "The server accepts batches again", outcome: .reported))
        }
        if let problem {
            reportDropped(part.count, reason, problem)
        }
        return true
    }

    /// The batch stays queued: waits for `Retry-After` or the next back-off, or drops the batch when its
    /// retries are exhausted.
    private func retry(
        _ part: ArraySlice<EventQueue.Message>, status: Int?, retryAfter: String?, failure: (any Error)?
    ) {
        let now = clock.now()
        let wait: Double
        var exhausted = false
        let answer = status.map { "HTTP \($0)" } ?? "no answer (\(failure.map { String(describing: $0) } ?? "unknown"))"
        let firstFailure: Bool = monitor.withLock {
            retryCount += 1
            statistics.retries += 1
            defer { sendFailing = true }
            return !sendFailing
        }
        if let retryAfter,
            let seconds = configuration.retry.retryAfter(retryAfter, now: configuration.now().timeIntervalSince1970)
        {
            wait = seconds
        } else {
            let attempt: Int = monitor.withLock {
                backoffCount += 1
                return backoffCount
            }
            exhausted = attempt > configuration.retry.maximumAttempts
            wait = configuration.retry.backoff(attempt: attempt - 1, random: Double.random(in: 0..<1))
        }
        if exhausted {
            remove(
                part,
                dropping: Problem(
                    .retriesExhausted,
                    "A batch of \(part.count) events failed \(configuration.retry.maximumAttempts) retries (last: \(answer)); it was dropped",
                    outcome: .dropped),
                reason: .retriesExhausted)
            backOff(0, giveUpFlushes: false)
            return
        }
        if firstFailure {
            report(
                Problem(
                    .sendFailed,
                    "Sending a batch of \(part.count) events failed (\(answer)); it stays queued and is retried in \(String(format: "%.1f", wait)) s",
                    outcome: .reported))
        }
        backOff(wait, giveUpFlushes: true, now: now)
    }

    /// No request for `delay` seconds of the clock; flushes waiting for delivery return now when
    /// `giveUpFlushes`.
    private func backOff(_ delay: Double, giveUpFlushes: Bool, now: Double? = nil) {
        let until = (now ?? clock.now()) + delay
        let flushes: [FlushRequest] = monitor.withLock {
            inFlightThrough = 0
            backoffUntil = delay > 0 ? until : nil
            nextIntervalAt = until
            defer { if giveUpFlushes { flushesToSend.removeAll() } }
            return giveUpFlushes ? flushesToSend : []
        }
        // The wake-up is on the clock before a waiting flush returns, so whoever flushed sees it scheduled.
        if delay > 0 { wakeSender(at: until) }
        flushes.forEach { $0.finish() }
    }
}
#endif
