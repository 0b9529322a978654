import Dispatch
import Tally

/// Holds the client's worker thread still, so that a benchmark can measure the caller's path alone: its
/// time without a worker competing for the core, and its allocations without the worker's.
///
/// Put ``processor`` first in the client's processors. ``pause(_:)`` tracks a marker event and returns
/// once the worker is blocked on it; events tracked until ``resume()`` wait in the client's queue, so the
/// queue's capacity must hold them. The processor passes every other event on unchanged.
public final class WorkerGate: Sendable {
    /// The marker's name; the processor recognises the marker by its kind (screen) and this name.
    public static let markerName = "__benchmark_gate__"

    private let entered = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    public init() {}

    /// The processor that blocks on the marker event.
    public var processor: Processor { Processor(gate: self) }

    /// Tracks the marker and waits until the worker holds it. Call with the client's queues empty (after a
    /// flush), so the worker reaches the marker at once.
    public func pause(_ analytics: AnalyticsClient) {
        analytics.track(.screen(Self.markerName))
        entered.wait()
    }

    /// Lets the worker go on.
    public func resume() {
        released.signal()
    }

    public struct Processor: Tally.Processor {
        let gate: WorkerGate

        public var name: String { "benchmark_gate" }

        public func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
            if envelope.event.kind == .screen, envelope.event.name == WorkerGate.markerName {
                gate.entered.signal()
                gate.released.wait()
            }
            return .keep
        }
    }
}
