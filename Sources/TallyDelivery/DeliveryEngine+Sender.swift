#if Delivery
import Foundation
import Tally

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DeliveryEngine {
    /// The sender thread: waits for a reason to send (``SegmentAPIDestination/Configuration/flushAt`` events
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
                // While the storage fails, events waiting in memory are sent from there.
                let inMemory = storageRetryAt != nil ? staged.count : 0
                let pending = queuedCount > 0 || inMemory > 0
                if !pending && !flushesToSend.isEmpty {
                    flushesToSend.forEach { $0.finish() }
                    flushesToSend.removeAll()
                }
                if pending
                    && (!flushesToSend.isEmpty || queuedCount + inMemory >= configuration.flushAt
                        || now >= nextIntervalAt)
                {
                    break
                }
                if pending && armedIntervalAt != nextIntervalAt {
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

    /// Reads the oldest batch (from the queue, or from memory while the storage fails), sends it and acts on
    /// the answer; a 400 or 413 splits it into parts sent one after the other.
    private func sendOldestBatch() {
        let overhead = SegmentMessage.batchOverhead(messages: configuration.maximumBatchEvents)
        let maximumBytes = configuration.maximumBatchBytes - overhead
        let (limit, floor, deleteFirst, committedBefore) = monitor.withLock {
            (batchLimit, answeredThrough, deletePending, lastCommittedId)
        }
        if deleteFirst, (try? storage.delete(from: .min, through: floor)) != nil {
            // The storage works again: what the server answered for is gone at last.
            monitor.withLock { deletePending = false }
        }
        var messages: [EventQueue.Message]
        do {
            messages = try storage.oldest(limit: limit, maximumBytes: maximumBytes, above: floor)
        } catch {
            if EventQueue.isDamage(error) {
                recoverStorage(after: error)
                monitor.withLock { inFlightThrough = 0 }
                return
            }
            report(
                Problem(
                    .storageFailed, "The queue could not be read (\(error)); sending is retried", outcome: .reported))
            backOff(Double(configuration.retry.baseDelay), giveUpFlushes: true)
            return
        }
        let fromMemory = messages.isEmpty
        if fromMemory { messages = takeFromMemory(limit: limit, maximumBytes: maximumBytes) }
        monitor.lock()
        let first = fromMemory ? -1 : messages.first?.id ?? .max
        flushesToSend.removeAll { flush in
            guard flush.target < first else { return false }
            flush.finish()
            return true
        }
        inFlightThrough = fromMemory ? 0 : messages.last?.id ?? 0
        sendingFromMemory = fromMemory && !messages.isEmpty
        // The read found nothing above the answered ids: the queue is empty, unless the writer committed
        // since the read (then its count stands, and the next round sends it).
        if fromMemory && lastCommittedId == committedBefore { queuedCount = 0 }
        if first != retryFirstId {
            retryFirstId = first
            retryCount = 0
            backoffCount = 0
        }
        monitor.unlock()
        guard !messages.isEmpty else { return }

        var parts: [ArraySlice<EventQueue.Message>] = [messages[...]]
        var tooLarge = false
        while let part = parts.first {
            parts.removeFirst()
            if part.count > 1 && part.count > monitor.withLock({ batchLimit }) {
                // Larger than what fitted after a 413 in this batch: halved without asking.
                let middle = part.startIndex + part.count / 2
                parts.insert(contentsOf: [part[..<middle], part[middle...]], at: 0)
                continue
            }
            let whole = part.count == messages.count
            let (status, retryAfter, failure) = post(part, retryCount: whole ? retryCount : 0)
            switch RetryPolicy.decision(for: status) {
            case .delivered:
                noteDelivered(part.count, afterTooLarge: tooLarge, whole: whole)
                remove(part, dropping: nil, fromMemory: fromMemory)
            case .retry:
                if fromMemory { giveBack(parts.flatMap { $0 }) }
                retry(part, status: status, retryAfter: retryAfter, failure: failure, fromMemory: fromMemory)
                return
            case .isolateRefused, .halve:
                if status == 413 { tooLarge = true }
                if part.count > 1 {
                    let middle = part.startIndex + part.count / 2
                    parts.insert(contentsOf: [part[..<middle], part[middle...]], at: 0)
                } else {
                    let why = status == 413 ? "as too large" : "as invalid"
                    remove(
                        part,
                        dropping: Problem(
                            .refusedByServer,
                            "The server refused this event \(why) (HTTP \(status ?? 0)); it was dropped",
                            outcome: .dropped),
                        fromMemory: fromMemory)
                }
            case .refuse:
                remove(
                    part,
                    dropping: Problem(
                        .refusedByServer,
                        "The server refused a batch of \(part.count) events (HTTP \(status ?? 0)), an answer that is not retried; they were dropped",
                        outcome: .dropped),
                    fromMemory: fromMemory)
            }
            if monitor.withLock({ stopping }) {
                if fromMemory { giveBack(parts.flatMap { $0 }) }
                break
            }
        }
        monitor.withLock {
            inFlightThrough = 0
            sendingFromMemory = false
            nextIntervalAt = clock.now() + configuration.flushInterval
            if queuedCount > 0 || (storageRetryAt != nil && !staged.isEmpty) { monitor.signal(senderWakes) }
        }
    }

    /// After a 413, the batches read next hold at most the number of events that fitted. After ten batches
    /// in a row delivered whole at that size, it grows by a quarter (at least one event), up to
    /// ``SegmentAPIDestination/Configuration/maximumBatchEvents``: a 413 is about bytes, so larger events may
    /// have caused it, and the size should not stay small for good; growing slowly costs at most one more
    /// 413 every ten batches while the events stay large.
    private func noteDelivered(_ count: Int, afterTooLarge: Bool, whole: Bool) {
        monitor.withLock {
            if afterTooLarge {
                batchLimit = min(batchLimit, count)
                batchesAtLimit = 0
            } else if whole && count >= batchLimit && batchLimit < configuration.maximumBatchEvents {
                batchesAtLimit += 1
                if batchesAtLimit >= 10 {
                    batchLimit = min(configuration.maximumBatchEvents, batchLimit + max(1, batchLimit / 4))
                    batchesAtLimit = 0
                }
            }
        }
    }

    /// While the storage fails, takes the oldest events waiting in memory for a batch (ids 0: they are in
    /// no queue).
    private func takeFromMemory(limit: Int, maximumBytes: Int) -> [EventQueue.Message] {
        monitor.withLock {
            guard storageRetryAt != nil else { return [] }
            var messages: [EventQueue.Message] = []
            var bytes = 0
            for payload in staged.prefix(limit) {
                if !messages.isEmpty && bytes + payload.count > maximumBytes { break }
                bytes += payload.count
                messages.append(EventQueue.Message(id: 0, payload: Data(payload)))
            }
            staged.removeFirst(messages.count)
            return messages
        }
    }

    /// Puts events taken from memory back in front of what waits there; drops them, with the storage's
    /// reason, when the writer has already stopped.
    private func giveBack(_ messages: [EventQueue.Message]) {
        guard !messages.isEmpty else { return }
        let (lost, reason): (Int, DropReason) = monitor.withLock {
            if writerEnded { return (messages.count, storageDropReason) }
            staged.insert(contentsOf: messages.map { [UInt8]($0.payload) }, at: 0)
            if writerWaiting { monitor.signal(writerWakes) }
            return (0, storageDropReason)
        }
        if lost > 0 {
            reportDropped(
                lost, reason,
                Problem(
                    .storageFailed,
                    "The destination closed while its database could not be written; \(lost) events were never committed",
                    outcome: .dropped))
        }
    }

    /// A read found the queue's file damaged: it is set aside and replaced (see
    /// ``EventQueue/recover(stamp:keepingAbove:because:)``), the counts are taken again from the new queue,
    /// and the events that could not be read are counted as dropped (`storage_failed`).
    ///
    /// Holds the monitor throughout, so that no commit is counted twice or lost between the two queues.
    private func recoverStorage(after error: any Error) {
        monitor.lock()
        let before = queuedCount
        let recovered = storage.recover(
            stamp: Self.stamp(configuration.now()), keepingAbove: answeredThrough, because: error)
        let totals =
            (try? storage.totals()) ?? (count: recovered.count, bytes: recovered.bytes, lastId: recovered.lastId)
        queuedCount = totals.count
        queuedBytes = totals.bytes
        lastCommittedId = max(lastCommittedId, totals.lastId)
        storageGeneration = recovered.generation
        answeredThrough = 0
        deletePending = false
        monitor.unlock()
        let lost = max(0, before - recovered.count)
        if lost > 0 {
            reportDropped(
                lost, .storageFailed,
                Problem(
                    .storageFailed, recovered.problem + "; \(lost) events could not be read and were lost",
                    outcome: .dropped))
        } else {
            report(Problem(.storageFailed, recovered.problem, outcome: .reported))
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
        request.setValue("tally/\(TallyLibrary.version)", forHTTPHeaderField: "User-Agent")
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
    ///
    /// When the queue cannot delete it (a full disk), the part is remembered as answered for: it is not sent
    /// again (the sender reads above ``answeredThrough``) and is deleted once the storage works. Only an app
    /// that stops first sends it again, a duplicate the server drops by its message ids.
    private func remove(
        _ part: ArraySlice<EventQueue.Message>, dropping problem: Problem?, reason: DropReason = .refusedByServer,
        fromMemory: Bool
    ) {
        guard let first = part.first?.id, let last = part.last?.id else { return }
        if !fromMemory {
            do {
                try storage.delete(from: first, through: last)
            } catch {
                let firstFailure: Bool = monitor.withLock {
                    answeredThrough = max(answeredThrough, last)
                    defer { deletePending = true }
                    return !deletePending
                }
                if firstFailure {
                    report(
                        Problem(
                            .storageFailed,
                            "The server answered for \(part.count) events but the queue could not remove them (\(error)); they are not sent again, and are removed once the queue can be written",
                            outcome: .reported))
                }
            }
        }
        let bytes = part.reduce(0) { $0 + $1.payload.count }
        let recovered = monitor.withLock {
            if !fromMemory {
                queuedCount -= part.count
                queuedBytes -= bytes
            }
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
    }

    /// The batch stays queued: waits for `Retry-After` or the next back-off, or drops the batch when its
    /// retries are exhausted.
    private func retry(
        _ part: ArraySlice<EventQueue.Message>, status: Int?, retryAfter: String?, failure: (any Error)?,
        fromMemory: Bool
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
                reason: .retriesExhausted, fromMemory: fromMemory)
            backOff(0, giveUpFlushes: false)
            return
        }
        if fromMemory { giveBack(Array(part)) }
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
            sendingFromMemory = false
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
