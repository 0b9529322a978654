// A newer standard-library declaration used in unannotated code.
func pause() async throws {
    try await Task.sleep(for: .seconds(1)) // expect: _Concurrency.Task.sleep(for:tolerance:clock:)
}

func zero() -> Bool {
    let start = ContinuousClock.now // expect: _Concurrency.ContinuousClock.now
    _ = start
    return true
}
