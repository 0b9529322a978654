#if Delivery
import Dispatch
import Foundation
import TallyDelivery
import Testing

/// The deadlines of the Dispatch timers (the fallback before iOS 16 and macOS 13), counted in UInt64
/// nanoseconds: a delay over 2.1 seconds once overflowed a watch's 32-bit `Int`.
struct DispatchTimeTests {
    static let start = DispatchTime(uptimeNanoseconds: 1_000)

    @Test(arguments: [
        (0.0, UInt64(0)), (2.5, 2_500_000_000), (60, 60_000_000_000), (86_400, 86_400_000_000_000),
        (-1, 0), (.nan, 0), (.infinity, 10_000_000_000_000_000),
    ])
    func theDeadlineIsTheDelayInNanoseconds(delay: Double, nanoseconds: UInt64) {
        #expect(dispatchTime(after: delay, from: Self.start).uptimeNanoseconds == 1_000 + nanoseconds)
    }
}
#endif
