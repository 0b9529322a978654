#if Collector
import Foundation
import GRDB
import Tally
import TallyTestSupport
@testable import TallyCollector
import Testing

/// The store's writes: a request is answered only once its events are committed and the listeners heard of
/// them, whether its round held it alone or with others; one that cannot be stored is refused alone.
@Suite("EventStore writes", .timeLimit(.minutes(1)))
struct EventStoreTests {
    static func event(_ name: String, _ id: String, session: String = "s") -> StoredEvent {
        StoredEvent(
            receivedAt: 0, session: session, source: .segment, type: .track, name: name, properties: "{}",
            messageId: id, context: "{}")
    }

    /// A store on a file (WAL, a pool) with a listener recording what it hears.
    static func store(_ folder: TemporaryFolder) throws -> (EventStore, Locked<[[StoredEvent]]>) {
        let store = try EventStore(path: folder.file("events.sqlite").path, tasks: CollectorTasks(threads: 2))
        let heard = Locked<[[StoredEvent]]>([])
        store.onCommit { events in heard.withLock { $0.append(events) } }
        return (store, heard)
    }

    /// Refuses, as a failing transaction, any event named `refused`.
    static func refuseNamed(_ store: EventStore) throws {
        try store.database.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER refuse BEFORE INSERT ON event WHEN NEW.name = 'refused'
                    BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                    """)
        }
    }

    @Test func concurrentRequestsAreAnsweredOnlyOnceStoredAndHeard() async throws {
        let folder = try TemporaryFolder()
        let (store, heard) = try Self.store(folder)
        let requests = 64
        let perRequest = 7
        try await withThrowingTaskGroup(of: Void.self) { group in
            for request in 0..<requests {
                group.addTask {
                    let events = (0..<perRequest).map { Self.event("E", "m-\(request)-\($0)") }
                    let stored = try await store.insert(events)
                    #expect(stored.map(\.messageId) == events.map(\.messageId))
                    #expect(stored.allSatisfy { $0.id > 0 })
                    // Heard before answered, and readable once answered.
                    let ids = Set(heard.current.joined().map(\.id))
                    #expect(stored.allSatisfy { ids.contains($0.id) })
                    let read = try await store.events(EventFilter(session: "s"), limit: requests * perRequest)
                    #expect(Set(stored.map(\.id)).isSubset(of: read.map(\.id)))
                }
            }
            try await group.waitForAll()
        }
        // Every event heard once, in commit order (ids rise from one commit to the next), each request's
        // events together and in their order.
        let all = heard.current.joined().map(\.id)
        #expect(all.count == requests * perRequest)
        #expect(all == all.sorted())
        #expect(Set(all).count == all.count)
        let count = try await store.count(EventFilter(session: "s")).count
        #expect(count == requests * perRequest)
    }

    @Test func aRetryIsLeftOutWhetherWrittenAloneOrWithOthers() async throws {
        let folder = try TemporaryFolder()
        let (store, _) = try Self.store(folder)
        let first = try await store.insert([Self.event("E", "same"), Self.event("E", "other")])
        #expect(first.count == 2)
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await store.insert([Self.event("E", "same")]).count } }
            return try await group.reduce(0, +)
        }
        #expect(results == 0)
        #expect(try await store.count(EventFilter(session: "s")).count == 2)
    }

    @Test func aFailingRequestIsRefusedAloneAndTheStoreGoesOn() async throws {
        let folder = try TemporaryFolder()
        let (store, heard) = try Self.store(folder)
        try Self.refuseNamed(store)

        // Alone: refused, nothing of it stored, nothing heard.
        await #expect(throws: (any Error).self) {
            try await store.insert([Self.event("E", "before-refused"), Self.event("refused", "r-0")])
        }
        #expect(try await store.count(EventFilter(session: "s")).count == 0)
        #expect(heard.current.isEmpty)
        // The store takes the next request.
        #expect(try await store.insert([Self.event("E", "after-0")]).count == 1)

        // Among concurrent requests, written in shared rounds: only the failing ones are refused, every other
        // is stored.
        let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
            for request in 0..<48 {
                group.addTask {
                    let name = request % 5 == 0 ? "refused" : "E"
                    let events = [Self.event("E", "c-\(request)-a"), Self.event(name, "c-\(request)-b")]
                    do {
                        let stored = try await store.insert(events)
                        return (request, stored.count == 2)
                    } catch {
                        return (request, false)
                    }
                }
            }
            return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        for (request, stored) in outcomes { #expect(stored == (request % 5 != 0), "request \(request)") }
        let read = try await store.events(EventFilter(session: "s"), limit: 1000)
        let ids = Set(read.compactMap(\.messageId))
        for request in 0..<48 {
            // A refused request has none of its events stored; any other, all of them.
            #expect(ids.contains("c-\(request)-a") == (request % 5 != 0), "request \(request)")
        }
        #expect(read.count == 1 + 2 * outcomes.values.filter { $0 }.count)
        #expect(heard.current.joined().count == read.count)
    }
}
#endif
