import Foundation
import Tally

/// Coverage as a terminal table, JSON, Markdown and JUnit XML. Every renderer sorts its output, so the same
/// coverage always renders the same text.
extension PlanCoverage {
    /// A summary line and one row per planned event, for a terminal.
    ///
    /// ```text
    /// Plan coverage: 2/3 events (66.7%), 3/5 properties (60.0%), 1/2 enum values (50.0%)
    /// KIND   EVENT              SEEN  PROPERTIES  ENUM VALUES
    /// track  menu_item_ordered     2  2/3         1/2
    /// track  checkout_started      0  0/1         -
    /// ```
    ///
    /// - Parameter colors: colour unseen events red and fully covered ones green (use on a terminal only).
    public func renderTable(colors: Bool = false) -> String {
        let style = TerminalStyle(colors: colors)
        var lines = [summary]
        let rows: [[String]] = events.map { event in
            [
                event.kind.rawValue, event.name, String(event.count),
                "\(event.properties.filter(\.isSeen).count)/\(event.properties.count)", enumColumn(event),
            ]
        }
        let header = ["KIND", "EVENT", "SEEN", "PROPERTIES", "ENUM VALUES"]
        let widths = (0..<header.count).map { column in ([header] + rows).map { $0[column].count }.max()! }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == 2
                    ? String(repeating: " ", count: widths[column] - cell.count) + cell
                    : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ").trimmingTrailingSpaces
        }
        lines.append(style.bold(line(header)))
        for (event, row) in zip(events, rows) {
            let text = line(row)
            let covered = event.isSeen && event.properties.allSatisfy(\.isSeen)
            lines.append(event.isSeen ? (covered ? style.green(text) : text) : style.red(text))
        }
        if !unplannedEvents.isEmpty {
            lines.append(
                "Unplanned events: "
                    + unplannedEvents.map { "\($0.title) ×\($0.count)" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The coverage as pretty-printed JSON with sorted keys; ``init(json:)`` reads it back as a baseline.
    public func renderJSON() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(self)) ?? Data("{}".utf8)  // encoding these plain values cannot fail
    }

    /// A Markdown report: the summary, a table of events, and the unseen properties and enum values.
    public func renderMarkdown() -> String {
        var lines = [
            "## Tracking plan coverage", "", summary, "", "| kind | event | seen | properties | enum values |",
            "|---|---|---:|---|---|",
        ]
        for event in events {
            let properties = "\(event.properties.filter(\.isSeen).count)/\(event.properties.count)"
            lines.append(
                "| \(event.kind.rawValue) | `\(event.name.markdownEscaped)` | \(event.count) | \(properties) | \(enumColumn(event)) |"
            )
        }
        let gaps = events.filter(\.isSeen).flatMap { event in
            event.properties.compactMap { property -> String? in
                if !property.isSeen {
                    return "- `\(event.name.markdownEscaped)`: property `\(property.name.markdownEscaped)` never set"
                }
                let unseen = property.unseenValues
                guard !unseen.isEmpty else { return nil }
                return "- `\(event.name.markdownEscaped)`: `\(property.name.markdownEscaped)` never sent "
                    + unseen.map { "`\($0.jsonString.markdownEscaped)`" }.joined(separator: ", ")
            }
        }
        if !gaps.isEmpty { lines += ["", "### Not exercised", ""] + gaps }
        if !unplannedEvents.isEmpty {
            lines += ["", "### Unplanned events", ""]
            lines += unplannedEvents.map { event in
                guard !event.kind.matchesByName else {
                    return "- \(event.kind.rawValue) `\(event.name.markdownEscaped)` (\(event.count))"
                }
                let name = event.name.isEmpty ? event.kind.rawValue : event.name
                return "- `\(name.markdownEscaped)`\(event.otherIds ? " and other ids" : "") (\(event.count))"
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// JUnit XML for CI: one test case per planned event, failing when the event was never seen, and one
    /// failing case per regression.
    public func renderJUnit(regressions: [Regression] = []) -> String {
        let unseen = events.filter { !$0.isSeen }.count
        let tests = events.count + regressions.count
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="tracking-plan-coverage" tests="\#(tests)" failures="\#(unseen + regressions.count)">"#,
            #"  <testsuite name="events" tests="\#(events.count)" failures="\#(unseen)">"#,
        ]
        for event in events {
            let name = "\(event.kind.rawValue) \(event.name)".xmlEscaped
            if event.isSeen {
                lines.append(#"    <testcase classname="plan.events" name="\#(name)"/>"#)
            } else {
                lines.append(#"    <testcase classname="plan.events" name="\#(name)">"#)
                lines.append(#"      <failure message="never seen"/>"#)
                lines.append("    </testcase>")
            }
        }
        lines.append("  </testsuite>")
        if !regressions.isEmpty {
            lines.append(
                #"  <testsuite name="regressions" tests="\#(regressions.count)" failures="\#(regressions.count)">"#)
            for regression in regressions {
                lines.append(
                    #"    <testcase classname="plan.regressions" name="\#(regression.description.xmlEscaped)">"#)
                lines.append(#"      <failure message="\#(regression.kind.rawValue)"/>"#)
                lines.append("    </testcase>")
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `Plan coverage: 2/3 events (66.7%), 3/5 properties (60.0%), 1/2 enum values (50.0%)`.
    public var summary: String {
        func part(_ measure: Measure, _ noun: String) -> String {
            "\(measure.seen)/\(measure.planned) \(noun) (\(Self.percent(measure.ratio)))"
        }
        return "Plan coverage: "
            + [
                part(eventMeasure, "events"), part(propertyMeasure, "properties"),
                part(enumValueMeasure, "enum values"),
            ]
            .joined(separator: ", ")
    }

    private func enumColumn(_ event: EventCoverage) -> String {
        let planned = event.properties.reduce(0) { $0 + ($1.plannedValues?.count ?? 0) }
        guard planned > 0 else { return "-" }
        return "\(event.properties.reduce(0) { $0 + $1.seenValues.count })/\(planned)"
    }

    /// One decimal, computed with integers so it does not depend on locale.
    static func percent(_ ratio: Double) -> String {
        let tenths = Int((ratio * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }

    fileprivate var markdownEscaped: String {
        replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "`", with: "'").replacingOccurrences(
            of: "\n", with: " ")
    }

    fileprivate var xmlEscaped: String {
        var result = ""
        for character in self {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += "&#10;"
            default: result.append(character)
            }
        }
        return result
    }
}
