#if Delivery
import TallyDelivery
import TallyTestSupport
import Testing

/// A timer on an injected clock sleeps until an instant that the engine's seconds read as its deadline or
/// later, so a wake-up never finds its deadline still ahead.
struct DurationReachingTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func theDurationIsNeverShortOfItsDeadline() {
        // A back-off that `Duration.seconds(_:)` alone reads back short, then whole seconds and a spread of
        // jittered back-offs (a fixed generator: the same deadlines on every run).
        var deadlines = [0.576460808365094, 0, 0.5, 7, 300, 1e9, 2e9, -1, .nan]
        var generator = SplitMix64(seed: 23)
        for _ in 0..<10_000 { deadlines.append(Double(generator.next() % 1_000_000_000) / 1e7) }
        var short = 0
        for deadline in deadlines {
            let bounded = deadline.isNaN ? 0 : min(max(deadline, 0), 1e9)
            let duration = durationReaching(deadline)
            if Self.seconds(duration) < bounded { short += 1 }
            #expect(duration - Duration.seconds(bounded) <= .microseconds(1))  // and no later than needed
        }
        #expect(short == 0)
        #expect(Self.seconds(.seconds(0.576460808365094)) < 0.576460808365094)
    }
}
#endif
