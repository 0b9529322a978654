import Foundation
import IssueReporting
import Tally

/// Checks that every event the app tracked arrived, once and intact, where the vendor's SDK delivered it: a
/// `tally collect` the SDK's server URL points at. Reports one issue, at the caller's line, listing what is
/// missing, duplicated or altered (see `DeliveryComparison`).
///
/// The collector is read first, so what the SDK flushed before the call is seen. Events that arrived and
/// match nothing tracked (the SDK's own, such as `$identify`) do not fail the check.
///
/// ```swift
/// let events = CollectorReader(url: collectorURL)
/// // … the UI test drives the app, whose SDK posts to the collector with `tally_session` = events.session …
/// let tracked = try RecordingFile(folder: recordings).records.map(\.envelope)
/// try await expectDelivered(tracked, to: events, source: "posthog")
/// ```
///
/// - Parameters:
///   - tracked: what the app tracked to the destination: its Tally recording's envelopes.
///   - reader: the collector session the SDK delivered to.
///   - source: only the events that came through this API (`posthog`, `amplitude`, `mixpanel`, `segment`); all
///     by default.
///   - fileID: where to report; the caller's by default.
///   - filePath: see `fileID`.
///   - line: see `fileID`.
///   - column: see `fileID`.
/// - Returns: the comparison, for further checks.
/// - Throws: ``CollectorReaderError`` when the collector cannot be read.
@discardableResult
public func expectDelivered(
    _ tracked: [Envelope], to reader: CollectorReader, source: String? = nil, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async throws -> DeliveryComparison {
    try await reader.refresh()
    var arrivals = reader.arrivals
    if let source { arrivals = arrivals.filter { $0.vendor == source } }
    return expectDelivered(tracked, arrived: arrivals, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Checks that every event in `tracked` is among `arrived`, once and intact; reports one issue at the
/// caller's line otherwise. See ``expectDelivered(_:to:source:fileID:filePath:line:column:)``.
///
/// - Parameters:
///   - tracked: what the app tracked to the destination: its Tally recording's envelopes.
///   - arrived: what arrived through the vendor's SDK, such as a `CollectorReader`'s `arrivals`.
///   - fileID: where to report; the caller's by default.
///   - filePath: see `fileID`.
///   - line: see `fileID`.
///   - column: see `fileID`.
/// - Returns: the comparison, for further checks.
@discardableResult
public func expectDelivered(
    _ tracked: [Envelope], arrived: [DeliveryComparison.Arrival], fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> DeliveryComparison {
    let comparison = DeliveryComparison(tracked: tracked, arrived: arrived)
    if !comparison.isComplete {
        reportIssue(
            "Not everything tracked was delivered:\n\(comparison)", fileID: fileID, filePath: filePath, line: line,
            column: column)
    }
    return comparison
}
