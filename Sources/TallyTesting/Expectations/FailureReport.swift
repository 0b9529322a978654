import CustomDump
import Foundation
import Tally

/// Builds the text of a failed expectation: what was expected, what was recorded, and a diff against the
/// closest recorded event.
///
/// Nesting never costs more stack than a few levels of CustomDump: a property value nested deeper than
/// ``diffDepth`` levels shows in the diff as one line of JSON (cut to `null` past
/// `PropertyValue.maximumDepth`, 64 levels, like all JSON Tally writes), and recorded events are listed
/// as JSON.
enum FailureReport {
    /// How many recorded events a message lists before eliding the middle.
    static let listedLimit = 20

    /// The deepest nesting of arrays and objects a diff shows as a tree: 8 levels. CustomDump needs tens
    /// of kilobytes of stack per level; at 8 levels a diff fits on a 512 KiB thread with room to spare.
    static let diffDepth = 8

    static func message(
        _ headline: String, matcher: EventMatcher? = nil, recorded: [(index: Int, event: Event)]
    ) -> String {
        var lines = [headline]
        lines.append("")
        lines.append(recordedList(recorded))
        if let matcher, let template = matcher.template, let closest = closest(to: matcher, in: recorded) {
            let actual = matcher.isPartial ? project(closest.event, onto: template) : closest.event
            let expected =
                matcher.isPartial
                ? Event(
                    kind: actual.kind, name: template.name.isEmpty ? actual.name : template.name,
                    properties: template.properties.dictionary) : template
            if let difference = diff(expected, actual) {
                lines.append("")
                lines.append(
                    "Closest recorded event [\(closest.index)]\(matcher.isPartial ? ", compared on the expected properties" : ""): (-expected +recorded)"
                )
                lines.append(difference.indented)
            }
        }
        return lines.joined(separator: "\n")
    }

    static func recordedList(_ recorded: [(index: Int, event: Event)]) -> String {
        guard !recorded.isEmpty else { return "Recorded: nothing." }
        var lines = ["Recorded (\(recorded.count)):"]
        let shown: [(Int, Event)?]
        if recorded.count > listedLimit {
            shown = recorded.prefix(listedLimit / 2).map { $0 } + [nil] + recorded.suffix(listedLimit / 2).map { $0 }
        } else {
            shown = recorded.map { $0 }
        }
        for entry in shown {
            if let (index, event) = entry {
                lines.append("  [\(index)] \(event)")
            } else {
                lines.append("  … \(recorded.count - listedLimit) more …")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The recorded event most like what the matcher describes: same name first, then kind, then the most
    /// expected properties present and equal.
    static func closest(to matcher: EventMatcher, in recorded: [(index: Int, event: Event)]) -> (
        index: Int, event: Event
    )? {
        guard let template = matcher.template else { return nil }
        func score(_ event: Event) -> Int {
            var score = 0
            if !template.name.isEmpty && event.name == template.name { score += 1000 }
            if event.kind == template.kind { score += 100 }
            for (key, value) in template.properties {
                if let actual = event.properties[key] { score += actual == value ? 10 : 3 }
            }
            if !matcher.isPartial { score -= abs(event.properties.count - template.properties.count) }
            return score
        }
        return recorded.max { score($0.event) < score($1.event) }
    }

    /// The event with only the properties the template names, so a partial match diffs on what matters.
    static func project(_ event: Event, onto template: Event) -> Event {
        var projected = event
        projected.properties = event.properties.filter { template.properties[$0.key] != nil }
        return projected
    }
}

extension String {
    var indented: String {
        split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }
}

extension BigNumber: CustomDumpStringConvertible {
    /// Dumps as the number's JSON text, `18446744073709551617`.
    public var customDumpDescription: String { text }
}

extension PropertyValue: CustomDumpRepresentable {
    /// Dumps as the plain value (`"Pizza"`, `9.5`, `nil`), so diffs read like the literal in the test.
    ///
    /// A value whose arrays and objects nest deeper than 8 levels dumps as one line of its JSON instead,
    /// so dumping and diffing it never recurses deeper than that, however deep the value.
    public var customDumpValue: Any {
        if nests(deeperThan: FailureReport.diffDepth) { return JSONLine(text: jsonString) }
        switch self {
        case .string(let value): return value
        case .int(let value): return value
        case .double(let value): return value
        case .bigNumber(let value): return value
        case .bool(let value): return value
        case .array(let value): return value
        case .object(let value): return value
        case .null: return Optional<Any>.none as Any
        }
    }
}

extension Event: CustomDumpReflectable {
    /// Dumps the fields the event's kind carries: a diff of a track event does not list empty ids, and one
    /// of an identify event shows its `userId` rather than an empty name.
    public var customDumpMirror: Mirror {
        var children: [(label: String?, value: Any)] = [("kind", kind)]
        if !name.isEmpty || (userId == nil && groupId == nil) { children.append(("name", name)) }
        if let userId { children.append(("userId", userId)) }
        if let groupId { children.append(("groupId", groupId)) }
        children.append(("properties", properties))
        return Mirror(self, children: children, displayStyle: .struct)
    }
}

/// A value dumped as its JSON text, without quotes.
private struct JSONLine: CustomDumpStringConvertible {
    var text: String
    var customDumpDescription: String { text }
}
