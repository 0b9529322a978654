// A toolchain module read only when imported: Observation is iOS 17 / macOS 14.
import Observation

func track(_ body: () -> Void) {
    withObservationTracking(body) {} // expect: Observation.withObservationTracking(_:onChange:)
}
