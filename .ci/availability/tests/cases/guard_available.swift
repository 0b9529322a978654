// `guard #available` covers the rest of its block; `if #available` its then-branch; platforms a check
// leaves out (tvOS below) stay at the floor.
func waitALittle() async throws {
    try await Task.sleep(for: .seconds(1)) // expect: _Concurrency.Task.sleep(for:tolerance:clock:)
    guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else {
        _ = Duration.zero // expect: Swift.Duration.zero
        return
    }
    try await Task.sleep(for: .seconds(1))
}

func partial() {
    if #available(macOS 13, iOS 16, watchOS 9, *) {
        _ = Duration.zero // expect: Swift.Duration.zero
    }
    if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
        _ = Duration.zero
    } else {
        _ = Duration.zero // expect: Swift.Duration.zero
    }
    if #unavailable(macOS 13, iOS 16, tvOS 16, watchOS 9) {
        print("older")
    } else {
        _ = Duration.zero
    }
}
