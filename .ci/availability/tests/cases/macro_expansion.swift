// Code inside a macro's expansion is reported at the macro's use, in our file.
import Testing

@Test func hasPart() {
    let text = "a-b"
    let part = "-"
    #expect(text.contains(part)) // expect: _StringProcessing.StringProtocol.contains(_:)
}

@Test func waits() async throws {
    try await Task.sleep(for: .milliseconds(1)) // expect: _Concurrency.Task.sleep(for:tolerance:clock:)
}
