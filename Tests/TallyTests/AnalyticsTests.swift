import Foundation
import Tally
import TallyTesting
import Testing

struct AnalyticsTests {
    @Test func flushReturnsAfterEveryEarlierEventReachedEveryDestination() async {
        let first = InMemoryDestination(name: "first")
        let second = InMemoryDestination(name: "second")
        let analytics = AnalyticsClient(destinations: [first, second])
        for index in 0..<1000 { analytics.track("e", ["i": .int(index)]) }
        await analytics.flush()
        #expect(first.count == 1000)
        #expect(second.events == first.events)
        #expect(first.events.map { $0.properties["i"] } == (0..<1000).map { .int($0) })
        #expect(first.flushCount == 1)
    }

    @Test func theEnvelopeKeepsWhatTheAppSaidApartFromWhatTheClientAdded() async throws {
        let clock = FixedClock()
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(
            destinations: [memory],
            configuration: .init(
                identityStore: InMemoryIdentityStore(Identity(anonymousId: "anon-1")), now: { clock.now }))
        analytics.track("first")
        clock.advance(by: 1.5)
        analytics.track("second", ["k": "v"])
        await analytics.flush()

        let envelopes = memory.envelopes
        #expect(envelopes.map(\.event) == [Event("first"), Event("second", ["k": "v"])])
        #expect(envelopes.map(\.timestamp) == [clock.now.addingTimeInterval(-1.5), clock.now])
        #expect(envelopes.map(\.anonymousId) == ["anon-1", "anon-1"])
        #expect(envelopes.map(\.userId) == [nil, nil])
        #expect(envelopes.map(\.messageId.sequence) == [1, 2])
        #expect(envelopes[0].messageId.prefix == envelopes[1].messageId.prefix)
        #expect(envelopes.allSatisfy { $0.context.isEmpty && $0.destinations == nil })
    }

    @Test func messageIDsPrintAsUUIDsAndParseBack() throws {
        let id = MessageID(prefix: 0x8f14_e45f_ceea_167a, sequence: 1)
        #expect(id.description == "8f14e45f-ceea-167a-0000-000000000001")
        #expect(MessageID(id.description) == id)
        #expect(MessageID("not an id") == nil)
        #expect(UUID(uuidString: id.description) != nil)
    }

    @Test func identifySetsTheUserForLaterEventsAndResetStartsOver() async throws {
        let store = InMemoryIdentityStore(Identity(anonymousId: "anon-1"))
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory], configuration: .init(identityStore: store))
        analytics.track("before")
        analytics.identify(userId: "user-7", traits: ["plan": "pro"])
        analytics.track("after")
        #expect(store.load()?.userId == "user-7")
        #expect(store.load()?.traits == ["plan": "pro"])
        analytics.reset()
        analytics.track("signed_out")
        await analytics.flush()

        let envelopes = memory.envelopes
        #expect(envelopes.map(\.event.kind) == [.track, .identify, .track, .track])
        #expect(envelopes.map(\.userId) == [nil, "user-7", "user-7", nil])
        #expect(envelopes[0].anonymousId == "anon-1")
        #expect(envelopes[2].anonymousId == "anon-1")
        #expect(envelopes[3].anonymousId != "anon-1")
        #expect(store.load() == Identity(anonymousId: envelopes[3].anonymousId))
    }

    @Test func anIdentityIsCreatedOnceAndLoadedOnTheNextLaunch() {
        let store = InMemoryIdentityStore()
        let firstLaunch = AnalyticsClient(destinations: [], configuration: .init(identityStore: store))
        let created = firstLaunch.identity
        #expect(store.load() == created)
        let secondLaunch = AnalyticsClient(destinations: [], configuration: .init(identityStore: store))
        #expect(secondLaunch.identity == created)
    }

    @Test func aliasStampsThePreviousIdThenSwitches() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.identify(userId: "old")
        analytics.alias("new")
        analytics.track("later")
        await analytics.flush()
        #expect(memory.envelopes.map(\.userId) == ["old", "old", "new"])
        #expect(memory.events[1] == .alias("new"))
    }

    @Test func groupAndScreenAreTrackedWithTheirKinds() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.screen("Login", ["from": "home"])
        analytics.group("acme", traits: ["seats": 5])
        await analytics.flush()
        #expect(memory.events == [.screen("Login", ["from": "home"]), .group("acme", traits: ["seats": 5])])
    }

    @Test func aSlowDestinationHoldsBackNeitherTheCallerNorTheOthers() async {
        let gate = GateDestination()
        let fast = AwaitingDestination(name: "fast")
        let analytics = AnalyticsClient(destinations: [gate, fast])
        for index in 0..<100 { analytics.track("e", ["i": .int(index)]) }
        // The caller returned; the fast destination gets everything while the gate is still shut.
        await fast.waitForCount(100)
        await gate.waitUntilBlocked()
        #expect(gate.events.isEmpty)
        #expect(fast.events.count == 100)
        gate.open()
        await analytics.flush()
        #expect(gate.events.count == 100)
    }

    @Test func aThrowingDestinationIsCountedAndReportedAndTheOthersCarryOn() async throws {
        struct Boom: Error {}
        let throwing = ThrowingDestination(name: "throwing", failing: ["bad"], error: Boom())
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [throwing, memory])
        analytics.track("good")
        analytics.track("bad")
        analytics.track("good")
        await analytics.flush()

        #expect(memory.count == 3)
        #expect(throwing.delivered.count == 2)
        let statistics = analytics.statistics
        #expect(statistics.destinations["throwing"]?.delivered == 2)
        #expect(statistics.destinations["throwing"]?.dropped == [.failed: 1])
        let problem = try #require(statistics.recentProblems.only)
        #expect(problem.code == .destinationFailed)
        #expect(problem.destination == "throwing")
        #expect(problem.eventName == "bad")
        #expect(problem.message.contains("Boom"))
    }

    @Test func aDestinationThatThrowsAProblemRejectsTheEvent() async throws {
        let rule = Problem(.vendorLimit, "Too long for the vendor", outcome: .dropped, path: "/name")
        let throwing = ThrowingDestination(name: "vendor", failing: ["bad"], error: rule)
        let analytics = AnalyticsClient(destinations: [throwing])
        analytics.track("bad")
        await analytics.flush()
        let statistics = analytics.statistics
        #expect(statistics.destinations["vendor"]?.dropped == [.rejected: 1])
        let problem = try #require(statistics.recentProblems.only)
        #expect(problem.code == .vendorLimit)
        #expect(problem.destination == "vendor")
        #expect(problem.eventName == "bad")
    }

    @Test func aFullDestinationBufferDropsTheNewestCountsThemAndReportsOnce() async throws {
        let gate = GateDestination()
        let witness = AwaitingDestination(name: "witness")
        let analytics = AnalyticsClient(
            destinations: [gate, witness],
            configuration: .init(bufferingByDestination: ["gate": Buffering(capacity: 5)]))
        analytics.track("first")
        await gate.waitUntilBlocked()  // "first" is being received; the gate's queue is empty
        for index in 0..<20 { analytics.track("e", ["i": .int(index)]) }
        // The worker hands each batch to the gate before the witness, so once the witness has all 21 the
        // gate's queue has been offered all of them too.
        await witness.waitForCount(21)
        gate.open()
        await analytics.flush()

        // The first 5 queued fit; the other 15 were dropped. How the worker batched them may vary, so the
        // counts are exact while the split of problems across batches is not asserted.
        #expect(gate.events.count == 6)
        #expect(gate.events.dropFirst().map { $0.properties["i"] } == (0..<5).map { .int($0) })
        let statistics = analytics.statistics
        #expect(statistics.destinations["gate"]?.dropped == [.bufferFull: 15])
        #expect(statistics.destinations["gate"]?.delivered == 6)
        #expect(statistics.recentProblems.allSatisfy { $0.code == .bufferFull && $0.destination == "gate" })
        #expect(!statistics.recentProblems.isEmpty)
    }

    @Test func theBlockPolicyLosesNothing() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(
            destinations: [memory],
            configuration: .init(
                buffering: Buffering(capacity: 2, whenFull: .block),
                destinationBuffering: Buffering(capacity: 3, whenFull: .block)))
        for index in 0..<5000 { analytics.track("e", ["i": .int(index)]) }
        await analytics.flush()
        #expect(memory.count == 5000)
        #expect(analytics.statistics.totalDropped == 0)
    }

    @Test func duplicateDestinationNamesAreMadeUniqueAndReported() async throws {
        let analytics = AnalyticsClient(destinations: [
            InMemoryDestination(), InMemoryDestination(), InMemoryDestination(),
        ])
        #expect(analytics.destinationNames == ["memory", "memory#2", "memory#3"])
        let problems = analytics.statistics.recentProblems
        #expect(problems.map(\.code) == [.duplicateDestinationName, .duplicateDestinationName])
        #expect(problems.map(\.destination) == ["memory#2", "memory#3"])
    }

    @Test func flushWithoutDestinationsOrEventsReturns() async {
        let analytics = AnalyticsClient(destinations: [])
        await analytics.flush()
        analytics.track("e")
        await analytics.flush()
        #expect(analytics.statistics.tracked == 1)
    }

    @Test func problemHistoryKeepsTheMostRecent() async {
        let analytics = AnalyticsClient(destinations: [], configuration: .init(problemHistoryLimit: 3))
        for index in 0..<5 { analytics.track("e\(index)", ["x": .double(.nan)]) }
        await analytics.flush()
        #expect(analytics.statistics.recentProblems.map(\.eventName) == ["e2", "e3", "e4"])
    }
}
