/// A schema format `tally import` reads a tracking plan from.
///
/// The mapping between a Tally plan and each format is described in <doc:ImportingPlans>.
package enum PlanImportFormat: String, Sendable, CaseIterable {
    /// One JSON Schema (2020-12) file per event: a directory of them, or one file.
    case jsonSchema = "json-schema"
    /// An Iglu static registry (`schemas/<vendor>/<name>/jsonschema/M-R-A`, self-describing draft 4
    /// schemas), newest version of each schema; or one self-describing file.
    case iglu
    /// Segment Protocols rules: `{"rules": [...]}`, or the Public API's `{"data": {"rules": [...]}}`.
    case segment
    /// RudderStack's data catalog YAML (`version: rudder/v1`): events, properties, custom types and one
    /// tracking plan, in a directory of YAML files or one file.
    case rudderstack
}
