import Foundation
import Tally
import Testing

/// The vendor adapter tests, grouped so that `swift test --filter Vendors` runs them all.
@Suite enum Vendors {}

/// Collects the problems a destination reports through its ``DestinationContext``.
final class ProblemCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Problem] = []

    /// Every problem reported so far, in order.
    var problems: [Problem] { lock.withLock { stored } }

    /// Keeps `problem`: a processor's `reportingTo`.
    @Sendable func add(_ problem: Problem) { lock.withLock { stored.append(problem) } }

    /// A context for `destination` that reports into this collector.
    func context(for destination: String) -> DestinationContext {
        DestinationContext(destination: destination) { [self] problem in
            lock.withLock { stored.append(problem) }
        }
    }
}

/// What one call to `receive` did: the problems reported and the problem thrown, if any.
struct Delivery {
    var problems: [Problem]
    var thrown: Problem?
    /// Another error than a `Problem`, which no vendor destination should throw.
    var otherError: String?
}

/// An envelope for `event` as the client would make it.
func envelope(_ event: Event, userId: String? = nil, anonymousId: String = "anon-1") -> Envelope {
    Envelope(
        event: event, messageId: MessageID(prefix: 1, sequence: 1), timestamp: Date(timeIntervalSince1970: 0),
        userId: userId, anonymousId: anonymousId)
}

/// Calls `destination.receive` directly with a context that collects problems.
func deliver(_ event: Event, to destination: some Destination, userId: String? = nil) -> Delivery {
    let collector = ProblemCollector()
    var delivery = Delivery(problems: [], thrown: nil)
    do {
        try destination.receive(
            envelope(event, userId: userId), context: collector.context(for: destination.name))
    } catch let problem as Problem {
        delivery.thrown = problem
    } catch {
        delivery.otherError = String(reflecting: error)
    }
    delivery.problems = collector.problems
    return delivery
}

/// What a vendor call received, as typed values so tests compare without casts. A value
/// ``PropertyValue/init(any:)`` cannot convert shows up under the key `<unconvertible>`, so a test
/// comparing it fails.
func typed(_ dictionary: [String: Any]?) -> [String: PropertyValue]? {
    guard let dictionary else { return nil }
    return typedProperties(dictionary)
}

/// The non-optional form of `typed(_:)`.
func typedProperties(_ dictionary: [String: Any]) -> [String: PropertyValue] {
    [String: PropertyValue](any: dictionary) ?? ["<unconvertible>": .string(String(describing: dictionary))]
}

/// Checks that `problem` is a vendor-limit problem from `destination` about `event` at `path`, with the
/// given outcome, and that its message contains `fragment`.
func expectVendorProblem(
    _ problem: Problem?, destination: String, event: Event, path: String?, outcome: Problem.Outcome = .sanitized,
    mentioning fragment: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let problem else {
        Issue.record("Expected a problem mentioning \"\(fragment)\"", sourceLocation: sourceLocation)
        return
    }
    #expect(problem.code == .vendorLimit, sourceLocation: sourceLocation)
    #expect(problem.outcome == outcome, sourceLocation: sourceLocation)
    #expect(problem.eventName == event.reportName, sourceLocation: sourceLocation)
    #expect(problem.path == path, sourceLocation: sourceLocation)
    #expect(problem.message.contains(fragment), "\(problem.message)", sourceLocation: sourceLocation)
    if outcome != .dropped {  // the client fills in the destination of a thrown problem
        #expect(problem.destination == destination, sourceLocation: sourceLocation)
    }
}

/// `count` properties named `p00`, `p01`… with integer values.
func numberedProperties(_ count: Int) -> [String: PropertyValue] {
    Dictionary(uniqueKeysWithValues: (0..<count).map { (String(format: "p%02d", $0), PropertyValue.int($0)) })
}
