/// Where the client keeps the user's consent answers between launches.
///
/// The client loads the answers once when it starts and saves them whenever
/// ``AnalyticsClient/setConsent(_:for:)`` changes one. `save` runs on the caller's thread while the client
/// holds its lock, so keep it quick: write to memory and persist in the background if persisting is slow.
/// A purpose the store has no answer for is ``ConsentStatus/notAsked``.
public protocol ConsentStore: Sendable {
    /// The saved answers, or an empty dictionary on first launch.
    func load() -> [ConsentPurpose: ConsentStatus]
    /// Saves the answers, every purpose the client gates.
    func save(_ answers: [ConsentPurpose: ConsentStatus])
}

/// A consent store that forgets everything when the process ends. The default, and the one tests use to
/// start a client with answers already given.
public final class InMemoryConsentStore: ConsentStore {
    private let state: Locked<[ConsentPurpose: ConsentStatus]>

    /// Creates a store, optionally holding answers already.
    public init(_ answers: [ConsentPurpose: ConsentStatus] = [:]) { state = Locked(answers) }

    public func load() -> [ConsentPurpose: ConsentStatus] { state.current }
    public func save(_ answers: [ConsentPurpose: ConsentStatus]) { state.withLock { $0 = answers } }
}
