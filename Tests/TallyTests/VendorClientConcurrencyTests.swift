import Foundation
import Tally
import TallyTestSupport
import Testing

/// A Swift 5 style SDK: a class with mutable state and no locks, not `Sendable`.
final class UnsynchronisedSDK {
    var logged = 0
    var callingThreads: Set<UInt> = []

    func log(_ name: String) {
        logged += 1
        callingThreads.insert(UInt(bitPattern: Int(bitPattern: pthread_self())))
    }
}

/// A destination written as the `VendorClient` documentation says.
struct UnsynchronisedSDKDestination: Destination {
    let name = "unsynchronised"
    let sdk: VendorClient<UnsynchronisedSDK>

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        sdk.client.log(envelope.event.name)
    }
}

/// `VendorClient` relies on the client calling a destination from one thread at a time; ThreadSanitizer
/// runs this suite in CI.
struct VendorClientConcurrencyTests {
    @Test func aNonSendableSDKIsOnlyEverCalledFromTheDestinationsThread() async {
        let sdk = UnsynchronisedSDK()
        let analytics = AnalyticsClient(
            destinations: [UnsynchronisedSDKDestination(sdk: VendorClient(sdk))],
            configuration: .init(
                buffering: Buffering(capacity: 1_000, whenFull: .block),
                destinationBuffering: Buffering(capacity: 1_000, whenFull: .block)))
        await onNewThreads(4) { _ in
            for _ in 0..<5_000 { analytics.track("tap") }
        }
        await analytics.shutdown()
        #expect(sdk.logged == 20_000)
        #expect(sdk.callingThreads.count == 1)
    }
}
