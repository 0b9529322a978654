/// What a generated spy throws from an unstubbed member whose return type has no default value.
///
/// ```swift
/// // protocol UserService { func fetch(id: Int) async throws -> User }
/// let users = UserServiceSpy()
/// await #expect(throws: SpyError.self) { try await users.fetch(id: 1) }   // nothing stubbed
/// ```
///
/// In the default strict mode the spy has also reported an issue naming the call. Stub the member, or
/// give the type a default with ``SpyDefaultValue``.
public struct SpyError: Error, Hashable, CustomStringConvertible {
    /// The call that had no answer, as the spy recorded it: `fetch(id: 1)`.
    public let call: String
    /// The member's return type, as Swift names it: `User`.
    public let returnType: String

    init(unstubbed call: String, returnType: Any.Type) {
        self.call = call
        self.returnType = String(describing: returnType)
    }

    /// `Unstubbed call to fetch(id: 1): User has no default value.`
    public var description: String {
        "Unstubbed call to \(call): \(returnType) has no default value."
    }
}
