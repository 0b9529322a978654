// A newer type in a declaration's signature: parameter, result, stored property, generic requirement.
func wait(timeout: Int) {}

func follow(timeout: Duration) {} // expect: Swift.Duration

func limit() -> Duration? { nil } // expect: Swift.Duration

struct Settings {
    var pause: Duration? // expect: Swift.Duration
    var count = 0
}

func tick(clock: some Clock<Duration>) {} // expect: _Concurrency.Clock
