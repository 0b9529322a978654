// Starts the local batch server, a process: `Process` exists on macOS and Linux only.
#if os(macOS) || os(Linux)

#if Delivery
import Foundation
import Tally
import TallyDelivery
import TallyTestSupport
import TallyTesting
import Testing

/// TallyTesting's destination conformance suite on SegmentAPIDestination, the one truly asynchronous
/// destination: real HTTP through URLSession to the local batch server, with timers on the system clock.
@Suite(.serialized) struct ConformanceTests {
    /// The message ids the server acknowledged, counted from the last reset.
    final class Received: Sendable {
        let server: BatchServer
        private let baseline = Locked(0)
        init(server: BatchServer) { self.server = server }
        var total: Int { (try? server.received().batches.reduce(0) { $0 + $1.messageIds.count }) ?? -1 }
        var count: Int { total - baseline.current }
        func reset() { baseline.withLock { $0 = total } }
    }

    @Test(arguments: [false, true])
    func segmentAPIDestinationConforms(exhaustive: Bool) async throws {
        let folder = try TemporaryFolder()
        let server = try BatchServer(log: folder.file("received.jsonl"))
        defer { server.stop() }
        let received = Received(server: server)
        let conformance = DestinationConformance(
            makeDestination: {
                SegmentAPIDestination(
                    configuration: .init(endpoint: server.endpoint, writeKey: "conformance", transport: .urlSession()))
            },
            receivedCount: { _ in received.count }, reset: { _ in received.reset() })
        let failures = await withExhaustiveCheck(exhaustive) { await conformance.run() }
        #expect(failures == 0)
    }
}
#endif

#endif
