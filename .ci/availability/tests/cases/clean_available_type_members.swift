// Members of an @available type, of an @available extension, and an @available function are in context.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct Waiter {
    var timeout: Duration
    func wait() async throws { try await Task.sleep(for: timeout) }
    struct Inner { var pause: Duration = .zero }
}

struct Plain {}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Plain {
    func pause(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func later(clock: some Clock<Duration>) -> Duration { .zero }
