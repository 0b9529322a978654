// Writing a destination: the overview's destination and its test.

import Tally
import Testing

struct LogDestination: Destination {
    let logger: Logger
    var name: String { "log" }

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        logger.info("\(envelope.event.name) \(envelope.event.properties.jsonString)")
    }
}

@Test func logsOneLinePerEvent() throws {
    let context = DestinationContext(destination: "log") { problem in Issue.record("\(problem)") }
    try LogDestination(logger: testLogger).receive(envelope, context: context)
    // then expect the logged line
}
