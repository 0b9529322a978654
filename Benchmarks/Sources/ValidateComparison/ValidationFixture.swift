import Foundation
import Tally

/// The plan both validators check against, as YAML for `tally` and as JSON Schemas for jsonschema-rs, and
/// recordings of events over it. The plan is PlanBenchmarks' plan: 50 events with 5 to 10 properties,
/// three of them required.
enum ValidationFixture {
    /// Property `p` of an event: a rotation of string, integer, number, boolean, enum and e-mail.
    static func schema(_ p: Int) -> (yaml: String, json: PropertyValue, value: (Int) -> PropertyValue) {
        switch p % 6 {
        case 0:
            return (
                "{ type: string, maxLength: 40 }", ["type": "string", "maxLength": 40], { .string("value \($0 % 100)") }
            )
        case 1:
            return (
                "{ type: integer, minimum: 0, maximum: 1000000 }",
                ["type": "integer", "minimum": 0, "maximum": 1_000_000],
                { .int($0 % 1000) }
            )
        case 2:
            return (
                "{ type: number, exclusiveMinimum: 0 }", ["type": "number", "exclusiveMinimum": 0],
                { .double(Double($0 % 50) + 0.5) }
            )
        case 3: return ("{ type: boolean }", ["type": "boolean"], { .bool($0 % 2 == 0) })
        case 4:
            return (
                "{ type: string, enum: [small, medium, large] }",
                ["type": "string", "enum": ["small", "medium", "large"]],
                { .string(["small", "medium", "large"][$0 % 3]) }
            )
        default:
            // Marked personal (sent as is), as a plan must mark a `format: email` property: the value scan
            // skips it, and finds nothing in the other strings, the usual case.
            return (
                #"{ type: [string, "null"], format: email, personal: { kind: email, rule: send } }"#,
                ["type": ["string", "null"], "format": "email"], { _ in "ada@example.com" }
            )
        }
    }

    static func propertyCount(_ event: Int) -> Int { 5 + event % 6 }

    static let planYAML: String = {
        var yaml = "version: 1\nevents:\n"
        for event in 0..<50 {
            yaml += "  - name: event_\(event)\n    description: Benchmark event \(event).\n    properties:\n"
            for property in 0..<propertyCount(event) {
                yaml += "      p\(property): \(schema(property).yaml)\n"
            }
            yaml += "    required: [p0, p1, p2]\n"
        }
        return yaml
    }()

    /// Each event's properties as a JSON Schema: what the plan says, with `additionalProperties: false`,
    /// Tally's rule at event level.
    static let schemasJSON: String = {
        var schemas: [String: PropertyValue] = [:]
        for event in 0..<50 {
            var properties: [String: PropertyValue] = [:]
            for property in 0..<propertyCount(event) { properties["p\(property)"] = schema(property).json }
            schemas["event_\(event)"] = [
                "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                "properties": .object(properties), "required": ["p0", "p1", "p2"], "additionalProperties": false,
            ]
        }
        return schemas.jsonString
    }()

    /// Writes a recording of `events` events round robin over the plan; every 97th has an enum value the
    /// plan does not allow. Returns how many events break the plan.
    static func writeRecording(events: Int, to url: URL) throws -> Int {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let start = Date(timeIntervalSince1970: 1_795_317_473)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 22)
        var failing = 0
        for index in 0..<events {
            let event = index % 50
            var properties: [String: PropertyValue] = [:]
            for property in 0..<propertyCount(event) { properties["p\(property)"] = schema(property).value(index) }
            if index % 97 == 0 && propertyCount(event) > 4 {
                properties["p4"] = "huge"
                failing += 1
            }
            let envelope = Envelope(
                event: Event("event_\(event)", properties), messageId: MessageID(prefix: 1, sequence: UInt64(index)),
                timestamp: start, userId: "user-1", anonymousId: "3f2c7a1e-9b4d-4e8a-a1c2-7d5e9f0b1c3a",
                context: ["app_version": "2.3.0"])
            buffer += Record(envelope: envelope, source: "benchmark").line
            if buffer.count >= 1 << 22 {
                try handle.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: buffer)
        return failing
    }
}
