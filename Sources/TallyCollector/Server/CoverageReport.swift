#if Collector
import Foundation
import Tally
import TallyPlan

/// `GET /tally/coverage`'s answer: the totals, then every planned event (seen or not, with its properties
/// and enum values), then the events the plan does not have.
///
/// ```json
/// {"summary":"2/3 events (67%) …","events":{"seen":2,"planned":3},"properties":{…},"enum_values":{…},
///  "planned":[{"kind":"track","name":"Order Completed","count":4,"properties":[{"name":"total","count":4,…}]}],
///  "unplanned":[{"kind":"track","name":"Debug Tapped","count":1}]}
/// ```
struct CoverageReport: Encodable {
    struct Measure: Encodable {
        var seen: Int
        var planned: Int
    }

    var summary: String
    var events: Measure
    var properties: Measure
    var enumValues: Measure
    var planned: [PlanCoverage.EventCoverage]
    var unplanned: [PlanCoverage.UnplannedEvent]

    init(_ coverage: PlanCoverage) {
        summary = coverage.summary
        events = Measure(seen: coverage.eventMeasure.seen, planned: coverage.eventMeasure.planned)
        properties = Measure(seen: coverage.propertyMeasure.seen, planned: coverage.propertyMeasure.planned)
        enumValues = Measure(seen: coverage.enumValueMeasure.seen, planned: coverage.enumValueMeasure.planned)
        planned = coverage.events
        unplanned = coverage.unplannedEvents
    }

    var json: Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data("{}".utf8)  // plain values: encoding cannot fail
    }
}
#endif
