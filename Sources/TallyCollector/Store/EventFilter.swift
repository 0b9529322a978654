#if Collector
import Foundation
import GRDB
import HTTPTypes
import Tally

/// Which stored events a read, a wait, a deletion or a viewer of the live page wants: the query parameters
/// `name`, `kind`, `type`, `session`, `since` and `after`.
///
/// Every parameter narrows the selection; absent ones select everything. `session=` with an empty value
/// selects the events no session tagged.
struct EventFilter: Sendable, Hashable {
    /// The exact event name (the screen or page name for screens and pages).
    var name: String?
    /// The Tally kind: `screen` selects screens and pages.
    var kind: Event.Kind?
    /// The Segment type: `page` and `screen` apart.
    var type: MessageType?
    /// The session.
    var session: String?
    /// Only events received at or after this time, in microseconds since 1970.
    var since: Int64?
    /// Only events after this id (a cursor: the last id a client has seen).
    var after: Int64?

    /// Reads the filter from query parameters.
    ///
    /// - Throws: ``APIError`` 400 for an unknown kind or type, a `since` that is not an ISO 8601 date-time,
    ///   or an `after` that is not a whole number.
    init(parameters: [String: String]) throws(APIError) {
        name = parameters["name"]
        session = parameters["session"]
        if let text = parameters["kind"] {
            guard let kind = Event.Kind(rawValue: text) else {
                throw .badParameter(
                    "kind", "must be one of \(Event.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self.kind = kind
        }
        if let text = parameters["type"] {
            guard let type = MessageType(rawValue: text) else {
                throw .badParameter(
                    "type", "must be one of \(MessageType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self.type = type
        }
        if let text = parameters["since"] {
            guard let date = ISO8601.date(from: text) else {
                throw .badParameter("since", "must be an ISO 8601 date-time such as 2026-11-24T10:00:00Z")
            }
            since = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        }
        if let text = parameters["after"] {
            guard let after = Int64(text), after >= 0 else {
                throw .badParameter("after", "must be an event id (0 or more)")
            }
            self.after = after
        }
    }

    init(session: String? = nil) {
        self.session = session
    }

    /// Whether `event` is selected; the same test as ``sql``.
    func matches(_ event: StoredEvent) -> Bool {
        if let name, event.name != name { return false }
        if let kind, event.type.kind != kind { return false }
        if let type, event.type != type { return false }
        if let session, event.session != session { return false }
        if let since, event.receivedAt < since { return false }
        if let after, event.id <= after { return false }
        return true
    }

    /// The SQL condition and its arguments.
    var sql: (condition: String, arguments: StatementArguments) {
        var conditions: [String] = []
        var arguments = StatementArguments()
        if let name {
            conditions.append("name = ?")
            arguments += [name]
        }
        if let kind {
            let types = MessageType.allCases.filter { $0.kind == kind }.map(\.rawValue)
            conditions.append("type IN (\(types.map { _ in "?" }.joined(separator: ",")))")
            arguments += StatementArguments(types)
        }
        if let type {
            conditions.append("type = ?")
            arguments += [type.rawValue]
        }
        if let session {
            conditions.append("session = ?")
            arguments += [session]
        }
        if let since {
            conditions.append("received_at >= ?")
            arguments += [since]
        }
        if let after {
            conditions.append("id > ?")
            arguments += [after]
        }
        return (conditions.isEmpty ? "1" : conditions.joined(separator: " AND "), arguments)
    }
}
#endif
