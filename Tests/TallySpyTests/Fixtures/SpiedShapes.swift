#if SpyMacro
import Foundation
import TallySpy

// The shapes the other generators take (Sources/TallySpy/Documentation.docc/ComparingSpyGenerators.md),
// each compiled for real; SpyShapesTests calls, stubs and verifies them.

@Spy
protocol InoutShape {
    func normalize(_ value: inout String)
    func bump(_ counter: inout Int, by step: Int) -> Int
    func fill(_ buffer: inout [Int], with value: Int) throws
    func merge<T>(_ value: T, into list: inout [T]) async
}

@Spy
protocol SelfShape {
    func copy() -> Self
    func merge(with other: Self) -> Bool
    static func make() -> Self
}

@Spy
protocol Storing<Item> {
    associatedtype Item = String
    func put(_ item: Item)
}

@Spy
protocol OpaqueShape {
    func handle(_ values: some Sequence<Int>)
    func accept(_ error: any Error) -> Bool
    func events() -> AsyncStream<String>
    func updates() -> any AsyncSequence<Int, Never>
}

@Spy
protocol SubscriptShape {
    subscript(key: String) -> Int { get }
    subscript<T>(typed key: String) -> T? { get }
}

@Spy
protocol EffectfulGetters {
    var token: String { get throws(StoreError) }
    var session: Int { get async }
}

@globalActor
actor ProbeActor {
    static let shared = ProbeActor()
}

@ProbeActor
@Spy
protocol OnProbeActor {
    func run(_ value: Int)
}

@Spy
protocol Defaulted {
    func greet() -> String
}

extension Defaulted {
    func greet() -> String { "hello" }
}

@Spy
protocol ClosureShape {
    func run(_ body: () async -> Void) async
    func sendable(_ body: @Sendable () -> Int) -> Int
    func throwingAsync(_ body: @escaping () async throws -> Void)
}

struct Token: ~Copyable {
    var id: Int
}

@Spy
protocol NoncopyableShape {
    func use(_ token: borrowing Token)
    func take(_ token: consuming Token)
    func look(_ name: borrowing String)
    func inspect<T: ~Copyable>(_ value: borrowing T)
}
#endif
