import Foundation

/// Who the client says events come from.
public struct Identity: Sendable, Hashable, Codable {
    /// The id of this install, created once and kept until ``AnalyticsClient/reset()``.
    public var anonymousId: String
    /// The signed-in user's id, set by ``AnalyticsTracking/identify(userId:traits:)`` and ``Event/alias(_:)``.
    public var userId: String?
    /// The traits given with the last identify call.
    public var traits: [String: PropertyValue]

    /// Creates an identity.
    public init(anonymousId: String, userId: String? = nil, traits: [String: PropertyValue] = [:]) {
        self.anonymousId = anonymousId
        self.userId = userId
        self.traits = traits
    }

    /// A new anonymous identity with a random id.
    public static func anonymous() -> Identity {
        Identity(anonymousId: UUID().uuidString.lowercased())
    }
}

/// Where the client keeps its ``Identity`` between launches.
///
/// The client loads the identity once when it starts and saves it whenever it changes (identify, alias,
/// reset). `save` runs on the thread that made the change while the client holds its lock, so keep it
/// quick: write to memory and persist in the background if persisting is slow.
public protocol IdentityStore: Sendable {
    /// The saved identity, or nil on first launch.
    func load() -> Identity?
    /// Saves the current identity.
    func save(_ identity: Identity)
}

/// An identity store that forgets everything when the process ends. The default.
public final class InMemoryIdentityStore: IdentityStore {
    private let state: Locked<Identity?>

    /// Creates a store, optionally holding an identity already.
    public init(_ identity: Identity? = nil) { state = Locked(identity) }

    public func load() -> Identity? { state.current }
    public func save(_ identity: Identity) { state.withLock { $0 = identity } }
}
