#if SpyMacro
import Foundation
import TallySpy
import Testing

/// The shapes other spy and mock generators take, on the protocols in Fixtures/SpiedShapes.swift: each is
/// called, stubbed and verified. ComparingSpyGenerators.md cites these tests.
@Suite struct SpyShapesTests {
    // MARK: inout

    @Test func anInoutStubWritesWhatTheCallerSeesAndTheCallKeepsBeforeAndAfter() throws {
        let spy = InoutShapeSpy()
        spy.stub(.normalize) { (value: SpyInout<String>) in value.value = value.value.lowercased() }
        var text = "Hello"
        spy.normalize(&text)
        #expect(text == "hello")
        spy.expectCalled(.normalize("Hello"))
        let call = try #require(spy.calls(to: .normalize).first)
        #expect(call.arguments == ["Hello"])
        #expect(call.written == [0: "hello"])
        #expect(call.description == #"normalize("Hello" -> "hello")"#)
        spy.expectNothingElse()
    }

    @Test func anInoutBesideOtherArgumentsAndAResult() {
        let spy = InoutShapeSpy()
        spy.stub(.bump) { (counter: SpyInout<Int>, step: Int) -> Int in
            counter.value += step
            return counter.value * 10
        }
        var counter = 5
        #expect(spy.bump(&counter, by: 2) == 70)
        #expect(counter == 7)
        spy.expectCalled(.bump(5, by: 2))
        #expect(spy.calls(to: .bump).first?.written == [0: 7])
    }

    @Test func withoutAStubTheValueComesBackUnchanged() {
        let spy = InoutShapeSpy(mode: .relaxed)
        var counter = 3
        #expect(spy.bump(&counter, by: 1) == 0)
        #expect(counter == 3)
        #expect(spy.calls(to: .bump).first?.written == [0: 3])
    }

    @Test func aThrowingStubStillWritesBackAsSwiftDoes() {
        let spy = InoutShapeSpy()
        spy.stub(.fill) { (buffer: SpyInout<[Int]>, value: Int) throws in
            buffer.value.append(value)
            throw StoreError(code: 1)
        }
        var buffer = [1]
        #expect(throws: StoreError(code: 1)) { try spy.fill(&buffer, with: 2) }
        #expect(buffer == [1, 2])
        spy.expectCalled(.fill([1], with: 2))
    }

    @Test func aGenericAsyncInout() async {
        let spy = InoutShapeSpy()
        spy.stub(.merge) { (value: Any, list: SpyInout<[String]>) async in
            list.value.append(value as? String ?? "?")
        }
        var list = ["a"]
        await spy.merge("b", into: &list)
        #expect(list == ["a", "b"])
        spy.expectCalled(.merge("b", into: ["a"]))
    }

    @Test func aStubWithAPlainTypeWhereTheBoxIsDueIsReportedAtItsLine() {
        let spy = InoutShapeSpy()
        let line = #line + 1
        spy.stub(.normalize) { (value: String) in _ = value }
        var text = "x"
        withKnownIssue {
            spy.normalize(&text)
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.description.contains("SpyInout<String>")
        }
        #expect(text == "x")
    }

    // MARK: Self and initializers

    @Test func aMemberReturningSelfAnswersTheSpyItselfUnlessStubbed() {
        let spy = SelfShapeSpy(mode: .relaxed)
        #expect(spy.copy() === spy)
        let other = SelfShapeSpy(mode: .relaxed)
        spy.stub(.copy, returning: other)
        #expect(spy.copy() === other)
        spy.expectCount(2, of: .copy)
    }

    @Test func anUnstubbedSelfIsReportedInStrictModeLikeAnyDefault() {
        let spy = SelfShapeSpy()
        withKnownIssue {
            _ = spy.copy()
        } matching: { issue in
            issue.description.contains("Unstubbed call to copy(), which returns SelfShapeSpy: returned the default")
        }
    }

    @Test func aSelfArgumentIsRecordedByIdentity() {
        let spy = SelfShapeSpy(mode: .relaxed)
        let other = SelfShapeSpy(mode: .relaxed)
        spy.stub(.merge(with: other), returning: true)
        #expect(spy.merge(with: other))
        #expect(!spy.merge(with: spy))
        spy.expectCalled(.merge(with: other))
        #expect(spy.calls(to: .merge).first?.description == "merge(with: <SelfShapeSpy>)")
    }

    @Test func aStaticMemberReturningSelfIsStubbedWithASpy() {
        let spy = SelfShapeSpy()
        let made = SelfShapeSpy(mode: .relaxed)
        spy.stub(.make, returning: made)
        let result = spy.withStaticCalls { SelfShapeSpy.make() }
        #expect(result === made)
        spy.expectCalled(.make)
    }

    // MARK: Associated types, some and any

    @Test func aPrimaryAssociatedTypeIsUsableAsAConstrainedExistential() {
        let spy = StoringSpy()
        let store: any Storing<String> = spy
        store.put("item")
        spy.expectCalled(.put("item"))
    }

    @Test func someAndAnyParametersAndAsyncSequenceResults() async {
        let spy = OpaqueShapeSpy()
        spy.handle([1, 2, 3])
        spy.expectCalled(.handle([1, 2, 3]))
        spy.stub(.accept, returning: true)
        #expect(spy.accept(StoreError(code: 2)))
        spy.expectCalled(.accept(StoreError(code: 2)))

        spy.stub(
            .events,
            returning: AsyncStream<String> { continuation in
                continuation.yield("opened")
                continuation.finish()
            })
        var events: [String] = []
        for await event in spy.events() { events.append(event) }
        #expect(events == ["opened"])

        spy.stub(.updates) { () -> any AsyncSequence<Int, Never> in
            AsyncStream { continuation in
                for value in [4, 5] { continuation.yield(value) }
                continuation.finish()
            }
        }
        var updates: [Int] = []
        for await update in spy.updates() { updates.append(update) }
        #expect(updates == [4, 5])
    }

    // MARK: Subscripts and effectful getters

    @Test func getOnlyAndGenericSubscripts() {
        let spy = SubscriptShapeSpy()
        spy.recordsPropertyReads = true
        spy.stub(.subscript("retries"), returning: 3)
        spy.stub(.subscriptTyped, returning: "text")
        #expect(spy["retries"] == 3)
        let typed: String? = spy[typed: "greeting"]
        #expect(typed == "text")
        spy.expectCalls(inOrder: [.subscript("retries"), .subscript(typed: "greeting")])
    }

    @Test func typedThrowingAndAsyncGetters() async {
        let spy = EffectfulGettersSpy()
        spy.stub(.token, throwing: StoreError(code: 4))
        #expect(throws: StoreError(code: 4)) { try spy.token }
        spy.stub(.session, returning: 9)
        #expect(await spy.session == 9)
    }

    // MARK: Actors, defaults, closures

    @Test func aGlobalActorProtocolGetsASpyOnThatActor() async {
        let spy = OnProbeActorSpy()
        await spy.run(1)
        spy.expectCalled(.run(1))
    }

    @Test func aDefaultImplementationIsReplacedByTheSpy() {
        let spy = DefaultedSpy()
        spy.stub(.greet, returning: "stubbed")
        let defaulted: any Defaulted = spy
        #expect(defaulted.greet() == "stubbed")
        spy.expectCalled(.greet)
    }

    @Test func asyncSendableAndThrowingClosures() async throws {
        let spy = ClosureShapeSpy()
        spy.stub(.run) { (body: @escaping () async -> Void) async in await body() }
        let ran = LockedBox(false)
        await spy.run { ran.set(true) }
        #expect(ran.value)
        spy.stub(.sendable) { (body: @escaping @Sendable () -> Int) in body() + 1 }
        #expect(spy.sendable { 41 } == 42)
        spy.throwingAsync { throw StoreError(code: 5) }
        spy.expectCalls(inOrder: [.run, .sendable, .throwingAsync])
    }

    // MARK: ~Copyable

    @Test func noncopyableArgumentsAreRecordedByTheirType() {
        let spy = NoncopyableShapeSpy()
        spy.use(Token(id: 1))
        spy.take(Token(id: 2))
        spy.look("name")
        spy.inspect(Token(id: 3))
        spy.expectCalls(inOrder: [
            .use(Token(id: 9)), .take(Token(id: 9)), .look("name"), .inspect,
        ])
        #expect(
            spy.calls.map(\.description) == [
                "use(<noncopyable Token>)", "take(<noncopyable Token>)", #"look("name")"#,
                "inspect(<noncopyable Token>)",
            ])
    }

    // MARK: Answers in turn

    @Test func stubsAnswerInTurnThenRepeatTheLast() {
        let spy = UserServiceSpy()
        spy.stub(.count, returning: 1, then: [2, 3])
        #expect((0..<5).map { _ in spy.count() } == [1, 2, 3, 3, 3])
        spy.stub(.find(name: "ada"), returning: nil, then: [User(id: 1, name: "Ada")])
        #expect(spy.find(name: "ada") == nil)
        #expect(spy.find(name: "ada") == User(id: 1, name: "Ada"))
    }
}
#endif
