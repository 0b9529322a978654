import Foundation
import TallySpy
import Testing

// The examples of TallySpy's doc comments, as written (.ci/check-doc-code). What an example leaves implicit
// (`User`, `ProfileModel`, `Form`, `FeedbackLoader`, a `gate`, a `worker`) is in TallySpySupport.swift. Spy.swift's
// example declares `UserService` too, so it is in DocCommentExamplesSpyTests.

// SpyProtocol.
@Spy
protocol UserService: Sendable {
    func fetch(id: Int) async throws -> User
    func log(_ message: String)
}

@Test func loadingShowsTheUser() async throws {
    let users = UserServiceSpy()
    users.stub(.fetch, returning: User(id: 1, name: "Ada"))

    try await ProfileModel(users: users).load(id: 1)

    users.expectCalled(.fetch(id: 1))
    users.expectCalled(.log)
    users.expectNothingElse()
}

/// SpyProtocol.init(mode:).
@Test func spyModes() {
    let users = UserServiceSpy()
    let quiet = UserServiceSpy(mode: .relaxed)  // unstubbed members return their defaults silently
    _ = (users, quiet)
}

/// SpyProtocol.calls.
@Test func callsDescribeThemselves() async throws {
    let users = UserServiceSpy()
    users.stub(.fetch, returning: User(id: 1, name: "Ada"))
    try await ProfileModel(users: users).load(id: 1)
    #expect(users.calls.map(\.description) == ["fetch(id: 1)", "log(\"loaded\")"])
}

/// SpyProtocol.calls(to:).
@Test func callsToOneMember() async throws {
    let users = UserServiceSpy(mode: .relaxed)
    _ = try? await users.fetch(id: 1)
    _ = try? await users.fetch(id: 2)
    let ids = users.calls(to: .fetch).map { $0.arguments[0] }
    #expect(ids == [1, 2])
}

/// SpyProtocol.recordsPropertyReads.
@Test func propertyReads() {
    let map = MapViewProvidableSpy()
    map.recordsPropertyReads = true
    map.stub(.delegate, returning: nil)  // or set it: a read unstubbed and unset is reported
    _ = map.delegate
    map.expectCalled(.delegate)
}

// SpyError's example is in DocCommentExamplesSpyTests: here `User` has a default (SpyDefaultValue's
// example), so an unstubbed `fetch` returns it instead of throwing.

/// SpyDefaultValue.
extension User: SpyDefaultValue {
    public static var spyDefaultValue: User { User(id: 0, name: "") }
}

// SpyInout.
@Spy
protocol Formatter {
    func normalize(_ text: inout String)
}

@Test func inoutStubs() {
    let formatter = FormatterSpy()
    formatter.stub(.normalize) { (text: SpyInout<String>) in text.value = text.value.lowercased() }
    var text = "Hello"
    formatter.normalize(&text)  // text == "hello"
    formatter.expectCalled(.normalize("Hello"))  // calls match the value passed in
    let written = formatter.calls(to: .normalize).first?.written  // [0: "hello"]: the value written back
    #expect(text == "hello" && written == [0: "hello"])
}

// SpyProtocol.withStaticCalls(_:).
@Spy
protocol FeedbackSDK {
    static func loadForm(_ id: String)
}

@Test func loadingPassesTheFormID() {
    let sdk = FeedbackSDKSpy()
    sdk.withStaticCalls {
        FeedbackLoader(sdk: FeedbackSDKSpy.self).load("some-id")
    }
    sdk.expectCalled(.loadForm("some-id"))
}

/// SpyProtocol.withStaticCalls(_:), called directly.
@Test func staticCallsDirectly() {
    let sdk = FeedbackSDKSpy()
    sdk.withStaticCalls { FeedbackSDKSpy.loadForm("some-id") }
    sdk.expectCalled(.loadForm("some-id"))
}

/// SpyProtocol.withStaticCalls(isolation:_:).
@Test func staticCallsAsync() async throws {
    let loader = AsyncFeedbackLoader(sdk: FeedbackSDKSpy.self)
    let sdk = FeedbackSDKSpy()
    try await sdk.withStaticCalls {
        try await loader.load("some-id")
    }
    sdk.expectCalled(.loadForm("some-id"))
}

// SpyProtocol.stub(_:returning:), with an optional result.
@Spy
protocol UserDirectory {
    func fetch(id: Int) -> User?
}

@Test func stubbingByCallOrByMember() {
    let users = UserDirectorySpy()
    users.stub(.fetch, returning: User(id: 1, name: "Ada"))
    users.stub(.fetch(id: 2), returning: nil)  // fetch(id:) returns User?
    #expect(users.fetch(id: 1) == User(id: 1, name: "Ada"))
    #expect(users.fetch(id: 2) == nil)
}

// SpyProtocol.stub(_:returning:then:).
enum NetworkStatus: Equatable, Sendable {
    case offline, connecting, online
}

@Spy
protocol Network {
    func status() -> NetworkStatus
}

@Test func stubbingASequence() {
    let network = NetworkSpy()
    network.stub(.status, returning: NetworkStatus.offline, then: [NetworkStatus.connecting, NetworkStatus.online])
    // status() answers .offline, .connecting, .online, .online, ...
    #expect(
        [network.status(), network.status(), network.status(), network.status()]
            == [.offline, .connecting, .online, .online])
}

// SpyProtocol.stub(_:using:).
@Spy
protocol SendableFormService {
    func load(_ id: String, completion: @escaping @Sendable (Form) -> Void)
}

@Test func stubbingWithAClosure() async throws {
    let users = UserServiceSpy()
    let forms = SendableFormServiceSpy()
    users.stub(.fetch) { (id: Int) in User(id: id, name: "User \(id)") }
    forms.stub(.load) { (id: String, completion: @escaping @Sendable (Form) -> Void) in
        completion(Form(id: id))
    }
    #expect(try await users.fetch(id: 7).name == "User 7")
}

/// SpyProtocol.stub(_:using:), async.
@Test func stubbingWithAnAsyncClosure() async throws {
    let users = UserServiceSpy()
    let gate = Gate()
    users.stub(.fetch) { (id: Int) async in
        await gate.wait()
        return User(id: id, name: "Ada")
    }
    #expect(try await users.fetch(id: 1).name == "Ada")
}

/// SpyProtocol.removeStubs(for:).
@Test func removingStubs() {
    let users = UserServiceSpy()
    users.stub(.fetch, returning: User(id: 1, name: "Ada"))
    users.removeStubs(for: .fetch)
}

/// SpyProtocol.waitForCalls(_:of:).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@Test func waitingForCalls() async {
    let sdk = AnalyticsSDKSpy()
    let worker = Uploader(sdk: sdk)
    worker.start()  // calls the spy from its own thread
    await sdk.waitForCalls(3, of: .logEvent)
    sdk.expectCount(3, of: .logEvent)
}

/// What SpyClosure and SpyState.rethrow show a generated spy doing, in a spy written by hand.
final class HandWrittenSpy {
    let _spy = SpyState(
        for: HandWrittenSpy.self, mode: .relaxed, fileID: #fileID, filePath: #filePath, line: #line, column: #column)

    func load(_ id: String, completion: @escaping (Form) -> Void) {
        return _spy.answer("load(_:completion:)", [id, SpyClosure(completion)], pattern: "load")
    }

    func perform<R>(_ work: () throws -> R) rethrows -> R {
        let result: Result<R, any Error> = withoutActuallyEscaping(work) { work in
            Result { try _spy.answerThrowing("perform(_:)", [SpyClosure(work)], pattern: "perform") }
        }
        return try _spy.rethrow(result, from: work, "perform(_:)", pattern: "perform")
    }
}
