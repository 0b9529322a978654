#if SpyMacro
import Foundation
import TallySpy

// The protocols the behaviour tests spy on: one per capability, each compiled for real.

struct User: Equatable, Sendable, Codable {
    var id: Int
    var name: String
}

struct Avatar: Equatable, Sendable {
    var url: String
}

struct StoreError: Error, Equatable {
    var code: Int
}

/// Sync, async and throwing members, a property, a subscript and a static member.
@Spy
protocol UserService: Sendable {
    func fetch(id: Int) async throws -> User
    func find(name: String) -> User?
    func log(_ message: String)
    func count() -> Int
    func current() throws -> User
    func make() -> Avatar
    var title: String { get set }
    var isReady: Bool { get }
    var profile: User { get async throws }
    subscript(index: Int) -> String { get set }
    static func configure(key: String)
}

/// Overloads by labels, by argument type and by return type.
@Spy
protocol Tracker {
    func track(event: String)
    func track(eventType: String, properties: [String: Any]?)
    func log(_ value: String)
    func log(_ value: Int)
    func value(for key: String) -> Int
    func value(for key: String) -> String
}

/// Generic members.
@Spy
protocol KeyValueStore {
    func save<T: Encodable>(_ value: T, forKey key: String) throws
    func load<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T
    func first<S: Sequence>(of items: S) -> S.Element? where S.Element: Equatable
}

/// Associated types: one named by the macro's argument, one with a default.
@Spy(associatedTypes: ["Item": User.self])
protocol Repository {
    associatedtype Item
    associatedtype ID = Int
    func save(_ item: Item)
    func item(id: ID) -> Item?
    func all() -> [Item]
}

/// Inheritance from two spied protocols of the same file.
@Spy
protocol Reading {
    func read(key: String) -> String?
}

@Spy
protocol Writing {
    func write(_ value: String, key: String)
}

@Spy
protocol ReadWriting: Reading, Writing, Sendable {
    func flush() async
}

/// An actor protocol.
@Spy
protocol Cache: Actor {
    func insert(_ value: Int, for key: String)
    func value(for key: String) -> Int?
    nonisolated func name() -> String
}

/// A main-actor protocol.
@MainActor
@Spy
protocol ScreenDelegate {
    func didAppear(_ screen: String)
    var title: String { get set }
}

/// Closures: escaping, optional, non-escaping, rethrows, typed throws.
@Spy
protocol Database {
    func transaction<R>(_ body: () throws -> R) rethrows -> R
    func load(_ id: String, completion: @escaping @Sendable (Result<String, any Error>) -> Void)
    func subscribe(_ handler: (@Sendable (String) -> Void)?)
    func validate(_ id: String) throws(StoreError) -> Bool
    func each(_ body: (Int) -> Void)
    func asyncWork(_ body: () async throws -> Void) async rethrows
    func log(_ items: String...)
}

/// Static members, an initializer and a static subscript.
@Spy
protocol FeedbackSDK {
    static func loadForm(_ id: String)
    static var delegate: String? { get set }
    init(apiKey: String)
    static subscript(key: String) -> Int { get }
}

/// A protocol of another module's kind, restated.
protocol ForeignAdapter {
    func send(_ name: String)
}

@Spy(restating: "ForeignAdapter")
protocol Adapter: ForeignAdapter {
    func send(_ name: String)
}

/// Standard protocols the spy implements by identity.
@Spy
protocol Session: Hashable, CustomStringConvertible, Identifiable {
    func end()
}

/// `#if` inside the protocol.
@Spy
protocol Platformed {
    func common()
    #if os(Linux)
    func linuxOnly(_ value: Int)
    #else
    func elsewhere()
    #endif
}

/// A value-type protocol: `mutating` requirements, and a typed throw beside a non-escaping closure.
@Spy
protocol Counter {
    mutating func increment(by step: Int)
    func scan(_ body: (Int) -> Void) throws(StoreError)
}

/// A protocol nested in a type, and a file-private one.
enum Namespace {
    @Spy
    protocol Nested {
        func ping(_ value: Int)
    }
}

@Spy
fileprivate protocol Hidden {
    func peek() -> Int
}

/// Used by the tests, so the file-private spy is compiled and exercised.
func hiddenSpyAnswers(_ value: Int) -> Int {
    let spy = HiddenSpy(mode: .relaxed)
    spy.stub(.peek, returning: value)
    return spy.peek()
}

/// A main-actor protocol that asks for Hashable: the spy's identity members are nonisolated.
@MainActor
@Spy
protocol Panel: Hashable {
    func open()
}

/// A public protocol gets a public spy.
@Spy
public protocol PublicService {
    func ping() -> Bool
}
#endif
