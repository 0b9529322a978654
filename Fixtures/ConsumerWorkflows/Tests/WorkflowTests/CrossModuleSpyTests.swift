import Payments
import TallySpy
import Testing

/// A protocol of the tests that refines one from the Payments module: its spy implements and records the
/// parent's requirements too, with the parent's calls (`.authorize`, `.refund`) in its own `Call`.
@Spy
protocol CheckoutPayments: PaymentProcessing {
    func receipt(for id: String) -> String?
}

@Suite(.exhaustive) struct CrossModuleSpyTests {
    @Test func aSpyOfAProtocolRefiningAnotherModulesSpiedProtocol() async throws {
        let payments = CheckoutPaymentsSpy()
        payments.stub(.authorize(amount: 500, currency: "EUR"), returning: "auth-1")
        payments.stub(.receipt, returning: "R-1")
        let id = try await payments.authorize(amount: 500, currency: "EUR")
        #expect(payments.receipt(for: id) == "R-1")
        payments.refund(id)
        payments.expectCalls(inOrder: [
            .authorize(amount: 500, currency: "EUR"), .receipt(for: "auth-1"), .refund("auth-1"),
        ])
    }
}
