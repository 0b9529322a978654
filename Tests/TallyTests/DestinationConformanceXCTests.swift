import Foundation
import Tally
import TallyTestSupport
import TallyTesting
import XCTest

/// `DestinationConformance` from XCTest, under exhaustive mode (`withExhaustiveCheck`): a right destination
/// records nothing, and a wrong one records one short failure per broken rule, at the line of `run()`, with
/// the messages the Swift Testing suite checks.
///
/// On Linux, XCTest has no `XCTExpectFailure`: the class catches its own failures where XCTest records them
/// (`FailureCapturingTestCase`).
final class DestinationConformanceXCTests: FailureCapturingTestCase {
    func testARightDestinationUnderExhaustiveModeRecordsNothing() async {
        capturing = true
        let broken = await withExhaustiveCheck {
            await DestinationConformance(makeDestination: { InMemoryDestination() }, receivedCount: { $0.count }).run()
        }
        capturing = false
        XCTAssertEqual(broken, 0)
        XCTAssertTrue(captured.isEmpty, "\(captured)")
    }

    func testAWrongDestinationUnderExhaustiveModeIsRecordedReadably() async {
        /// Drops every tenth event and fails on the event with 300 properties.
        struct Broken: Destination {
            let inner = InMemoryDestination()
            var name: String { "broken" }
            func receive(_ envelope: Envelope, context: DestinationContext) throws {
                struct Failure: Error {}
                if envelope.event.name == "conformance_many" { throw Failure() }
                if let index = envelope.event.properties["index"]?.intValue, index % 10 == 9 { return }
                try inner.receive(envelope, context: context)
            }
        }
        capturing = true
        let line = #line + 2
        let broken = await withExhaustiveCheck {
            await DestinationConformance(makeDestination: { Broken() }, receivedCount: { $0.inner.count }).run()
        }
        capturing = false
        XCTAssertEqual(broken, 4)
        XCTAssertEqual(captured.map(\.line), [line, line, line, line])
        let messages = captured.map(\.message)
        for message in messages {
            XCTAssertTrue(message.contains("Destination conformance: "), message)
            XCTAssertLessThan(message.count, 600, message)
            XCTAssertLessThanOrEqual(message.split(separator: "\n").count, 5, message)
        }
        XCTAssertTrue(
            messages.contains { $0.contains("every event delivered: 500 tracked, the receiver got 450") }, "\(messages)"
        )
        XCTAssertTrue(
            messages.contains {
                $0.contains("bad input: the destination failed on event \"conformance_many\" instead of rejecting it")
            }, "\(messages)")
    }
}
