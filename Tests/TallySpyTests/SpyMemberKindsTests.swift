#if SpyMacro
import Foundation
import TallySpy
import Testing

/// Each kind of requirement `@Spy` handles, on the protocols in Fixtures/SpiedProtocols.swift.
@Suite struct SpyMemberKindsTests {
    @Test func overloadsByLabelsHaveTheirOwnCalls() {
        let tracker = TrackerSpy()
        tracker.track(event: "opened")
        tracker.track(eventType: "tapped", properties: ["item": "pizza"])
        tracker.expectCalled(.track(event: "opened"))
        tracker.expectCalled(.track(eventType: "tapped", properties: ["item": "pizza"]))
        tracker.expectCount(1, of: .trackEvent)
        tracker.expectCount(1, of: .trackEventTypeProperties)
        tracker.expectNothingElse()
    }

    @Test func overloadsByTypeShareTheirCallWithAnyArguments() {
        let tracker = TrackerSpy()
        tracker.log("text")
        tracker.log(42)
        tracker.expectCalled(.log("text"))
        tracker.expectCalled(.log(42))
        tracker.expectCount(2, of: .log)
        tracker.expectNothingElse()
    }

    @Test func overloadsByReturnTypeAnswerWithTheStubOfTheirType() {
        let tracker = TrackerSpy()
        tracker.stub(.value(for: "count"), returning: 3)
        tracker.stub(.value(for: "name"), returning: "Ada")
        let count: Int = tracker.value(for: "count")
        let name: String = tracker.value(for: "name")
        #expect(count == 3)
        #expect(name == "Ada")
    }

    @Test func genericMembersRecordTheirArgumentsAndAnswerThroughStubs() throws {
        let store = KeyValueStoreSpy()
        try store.save(User(id: 1, name: "Ada"), forKey: "user")
        store.stub(.load, returning: User(id: 2, name: "Grace"))
        let loaded = try store.load(User.self, forKey: "user")
        #expect(loaded == User(id: 2, name: "Grace"))
        store.stub(.first) { (items: Any) in (items as? [Int])?.first }
        #expect(store.first(of: [7, 8]) == 7)
        store.expectCalled(.save(User(id: 1, name: "Ada"), forKey: "user"))
        store.expectCalled(.load(User.self, forKey: "user"))
        store.expectCalled(.first(of: [7, 8]))
        store.expectNothingElse()
    }

    @Test func associatedTypesTakeTheNamedAndTheDefaultTypes() {
        let repository = RepositorySpy()
        repository.save(User(id: 1, name: "Ada"))
        repository.stub(.item(id: 1), returning: User(id: 1, name: "Ada"))
        repository.stub(.all, returning: [User(id: 1, name: "Ada")])
        #expect(repository.item(id: 1) == User(id: 1, name: "Ada"))
        #expect(repository.all() == [User(id: 1, name: "Ada")])
        repository.expectCalled(.save(User(id: 1, name: "Ada")))
        repository.expectCalls(inOrder: [.save, .item(id: 1), .all])
    }

    @Test func aProtocolInheritingSpiedProtocolsHasTheirCallsToo() async {
        let storage = ReadWritingSpy()
        storage.write("v", key: "k")
        storage.stub(.read(key: "k"), returning: "v")
        #expect(storage.read(key: "k") == "v")
        await storage.flush()
        storage.expectCalls(inOrder: [.write("v", key: "k"), .read(key: "k"), .flush])
        storage.expectNothingElse()
    }

    @Test func anActorProtocolGetsAnActorSpy() async {
        let cache = CacheSpy()
        await cache.insert(1, for: "a")
        cache.stub(.value(for: "a"), returning: 1)
        #expect(await cache.value(for: "a") == 1)
        cache.stub(.name, returning: "memory")
        #expect(cache.name() == "memory")
        cache.expectCalls(inOrder: [.insert(1, for: "a"), .value(for: "a"), .name])
    }

    @MainActor
    @Test func aMainActorProtocolGetsAMainActorSpy() {
        let delegate = ScreenDelegateSpy()
        delegate.recordsPropertyReads = true
        delegate.didAppear("Home")
        delegate.title = "Home"
        #expect(delegate.title == "Home")
        delegate.expectCalls(inOrder: [.didAppear("Home"), .setTitle("Home"), .title])
    }

    @Test func escapingAndOptionalClosuresReachStubs() {
        let database = DatabaseSpy()
        database.stub(.load) { (id: String, completion: @escaping @Sendable (Result<String, any Error>) -> Void) in
            completion(.success("row \(id)"))
        }
        let received = LockedBox<String?>(nil)
        database.load("7") { result in received.set(try? result.get()) }
        #expect(received.value == "row 7")
        database.subscribe(nil)
        database.subscribe { _ in }
        database.expectCalled(.load("7"))
        database.expectCalled(.subscribe(nil))
        database.expectCalled(.subscribe({ _ in }))
        #expect(
            database.calls.map(\.description) == [
                "load(\"7\", completion: <closure>)", "subscribe(nil)", "subscribe(<closure>)",
            ])
    }

    @Test func nonEscapingClosuresReachStubsForTheLengthOfTheCall() {
        let database = DatabaseSpy()
        database.stub(.each) { (body: @escaping (Int) -> Void) in
            body(1)
            body(2)
        }
        var seen: [Int] = []
        database.each { seen.append($0) }
        #expect(seen == [1, 2])
    }

    @Test func aRethrowingMemberRethrowsWhatItsClosureThrows() throws {
        let database = DatabaseSpy()
        database.stub(.transaction) { (body: @escaping () throws -> Int) in try body() }
        #expect(database.transaction { 42 } == 42)
        #expect(throws: StoreError(code: 1)) {
            try database.transaction { () throws -> Int in throw StoreError(code: 1) }
        }
        // A closure that cannot throw: the call cannot throw either.
        let value: Int = database.transaction { 7 }
        #expect(value == 7)
        database.expectCount(3, of: .transaction)
    }

    @Test func anAsyncRethrowingMemberRethrowsToo() async throws {
        let database = DatabaseSpy()
        database.stub(.asyncWork) { (body: @escaping () async throws -> Void) async throws in try await body() }
        await #expect(throws: StoreError(code: 2)) {
            try await database.asyncWork { throw StoreError(code: 2) }
        }
        await database.asyncWork {}
        database.expectCount(2, of: .asyncWork)
    }

    @Test func typedThrowsThrowTheirType() {
        let database = DatabaseSpy()
        database.stub(.validate, throwing: StoreError(code: 3))
        #expect(throws: StoreError(code: 3)) { try database.validate("x") }
    }

    @Test func variadicArgumentsAreRecordedAsTheyCame() {
        let database = DatabaseSpy()
        database.log("a", "b")
        database.expectCalled(.log("a", "b"))
    }

    @Test func staticsInitializersAndStaticSubscriptsRecordIntoTheInstalledSpy() {
        let sdk = FeedbackSDKSpy()
        sdk.recordsPropertyReads = true
        sdk.stub(.subscript("retries"), returning: 3)
        let made = sdk.withStaticCalls { () -> FeedbackSDKSpy in
            FeedbackSDKSpy.loadForm("form-1")
            FeedbackSDKSpy.delegate = "delegate"
            #expect(FeedbackSDKSpy.delegate == "delegate")
            #expect(FeedbackSDKSpy["retries"] == 3)
            return FeedbackSDKSpy(apiKey: "key")
        }
        sdk.expectCalls(inOrder: [
            .loadForm("form-1"), .setDelegate("delegate"), .delegate, .subscript("retries"),
            .initializer(apiKey: "key"),
        ])
        sdk.expectNothingElse()
        made.expectNothingElse()
    }

    @Test func aRestatedForeignProtocolIsImplementedFromTheRestatement() {
        let adapter = AdapterSpy()
        let foreign: any ForeignAdapter = adapter
        foreign.send("event")
        adapter.expectCalled(.send("event"))
    }

    @Test func standardProtocolsAreImplementedByIdentity() {
        let first = SessionSpy()
        let second = SessionSpy()
        #expect(first == first)
        #expect(first != second)
        #expect(Set([first, first, second]).count == 2)
        #expect(first.description == "SessionSpy")
        #expect(first.id != second.id)
    }

    @Test func membersInsideIfConfigAreSpiedUnderTheSameCondition() {
        let spy = PlatformedSpy()
        spy.common()
        #if os(Linux)
        spy.linuxOnly(1)
        spy.expectCalls(inOrder: [.common, .linuxOnly(1)])
        #else
        spy.elsewhere()
        spy.expectCalls(inOrder: [.common, .elsewhere])
        #endif
    }

    @Test func mutatingRequirementsAreImplementedByTheClass() throws {
        var counter: any Counter = CounterSpy()
        counter.increment(by: 2)
        let spy = try #require(counter as? CounterSpy)
        spy.expectCalled(.increment(by: 2))
    }

    @Test func aTypedThrowBesideANonEscapingClosure() {
        let counter = CounterSpy()
        counter.stub(.scan) { (body: @escaping (Int) -> Void) in body(5) }
        var seen: [Int] = []
        #expect(throws: Never.self) { try counter.scan { seen.append($0) } }
        #expect(seen == [5])
        counter.stub(.scan, throwing: StoreError(code: 7))
        #expect(throws: StoreError(code: 7)) { try counter.scan { _ in } }
    }

    @Test func nestedAndFilePrivateProtocolsAreSpiedWhereTheyAre() {
        let nested = Namespace.NestedSpy()
        nested.ping(1)
        nested.expectCalled(.ping(1))
        #expect(hiddenSpyAnswers(4) == 4)
    }

    @MainActor
    @Test func aMainActorProtocolAskingForHashable() {
        let first = PanelSpy()
        first.open()
        #expect(first == first)
        #expect(first != PanelSpy())
        first.expectCalled(.open)
    }

    @Test func aPublicProtocolGetsAPublicSpy() {
        let spy = PublicServiceSpy(mode: .relaxed)
        #expect(spy.ping() == false)
        spy.expectCalled(.ping)
    }
}
#endif
