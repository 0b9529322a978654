import TallySpy

/// A payment SDK's facade in a module of its own, carrying `@Spy` as a public protocol: its spy, its calls
/// and its implementations are public too, so a protocol in another module that refines it gets a spy with
/// these calls (issue 36: protocol inheritance across modules).
@Spy
public protocol PaymentProcessing: Sendable {
    func authorize(amount: Int, currency: String) async throws -> String
    func refund(_ id: String)
}
