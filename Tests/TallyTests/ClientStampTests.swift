import Foundation
import TallyTesting
import Testing

@testable import Tally

/// The caller's path makes each event's envelope once, under the queue's lock, with every stamped value in
/// place (issue 39, fourth round). What it stamps, and how an event the queue did not take is named, must not
/// change; and the queue must make an element only for an offer it admits.
@Suite(.timeLimit(.minutes(1))) struct ClientStampTests {
    /// The outcome of an offer, without its payload, for comparing.
    private static func outcome(_ admission: BoundedQueue<String>.Admission<String>) -> String {
        switch admission {
        case .accepted: "accepted"
        case .full(let input, let room, let startsEpisode): "full \(input) \(room) \(startsEpisode)"
        case .refused(let input): "refused \(input)"
        case .closed(let input): "closed \(input)"
        }
    }

    @Test func anOfferMakesItsElementOnlyWhenAdmittedAndHandsTheInputBackOtherwise() {
        let queue = BoundedQueue<String>(capacity: 1, policy: .dropNewest)
        var made: [String] = []
        func offer(_ input: String, admit: Bool = true) -> String {
            Self.outcome(
                queue.offer(
                    input, weight: 1, mayWait: false, admit: { admit },
                    make: { input in
                        made.append(input)
                        return input + "!"
                    }, onFirstWait: { _ in }))
        }
        #expect(offer("a", admit: false) == "refused a")
        #expect(offer("b") == "accepted")
        #expect(offer("c") == "full c 0 true")
        #expect(offer("d") == "full d 0 false")
        var batch: [String] = []
        #expect(queue.drain(into: &batch))
        #expect(batch == ["b!"])
        queue.close()
        #expect(offer("e") == "closed e")
        #expect(made == ["b"])
        #expect(queue.acceptedCount == 1)
    }

    @Test func eachEnvelopeCarriesItsSequenceClockIdentityAndOrigin() async throws {
        let memory = InMemoryDestination()
        let ticks = Locked(0.0)
        let analytics = AnalyticsClient(
            destinations: [memory],
            configuration: .init(
                now: {
                    ticks.withLock { tick in
                        tick += 1
                        return Date(timeIntervalSince1970: tick)
                    }
                }))
        let anonymousId = analytics.identity.anonymousId
        analytics.track("a")
        analytics.track(.identify(userId: "user-42"))
        analytics.track("b")
        analytics.track(.alias("user-43"))
        analytics.track(.screen("Home"))
        await analytics.flush()

        let envelopes = memory.envelopes
        #expect(envelopes.map(\.event.reportName) == ["a", "identify user-42", "b", "alias user-43", "Home"])
        #expect(envelopes.map(\.messageId.sequence) == [1, 2, 3, 4, 5])
        #expect(Set(envelopes.map(\.messageId.prefix)).count == 1)
        #expect(envelopes.map(\.timestamp.timeIntervalSince1970) == [1, 2, 3, 4, 5])
        // An identify carries its own id; an alias the id it replaces; every other event the id known then.
        #expect(envelopes.map(\.userId) == [nil, "user-42", "user-42", "user-42", "user-43"])
        #expect(envelopes.allSatisfy { $0.anonymousId == anonymousId && !anonymousId.isEmpty })
        #expect(envelopes.allSatisfy { $0.origin == .app && $0.context.isEmpty && $0.destinations == nil })
        #expect(analytics.identity.userId == "user-43")
    }

    @Test func anEventTrackedAfterShutdownIsNamedInItsProblem() async throws {
        let analytics = AnalyticsClient(destinations: [InMemoryDestination()])
        await analytics.shutdown()
        analytics.track(.identify(userId: "user-42"))
        let problem = try #require(analytics.statistics.recentProblems.only)
        #expect(problem.code == .trackedAfterShutdown)
        #expect(problem.eventName == "identify user-42")
        #expect(analytics.statistics.dropped == [.afterShutdown: 1])
        // The refused identify changed nobody's id.
        #expect(analytics.identity.userId == nil)
    }
}
