import Foundation
import PlannedApp
import Tally
import TallyPlan
import TallyTesting
import Testing

// The examples of TallyPlan's doc comments, as written (.ci/check-doc-code). What an example leaves implicit
// (a `plan`, a `validator`, a `record`, a `baseline`) is a parameter here; `PlannedEvents` is PlannedApp's,
// generated from its plan.

/// SwiftCodeGenerator.
func generateExample(plan: TrackingPlan) {
    let source = SwiftCodeGenerator().generate(plan, planFileName: "tracking-plan.yaml")
    _ = source
}

// SwiftCodeGenerator: what it writes for an event, with the enum type it declares for `size`.
extension PlannedEvents {
    public enum MenuItemOrdered {
        public enum Size: String, Sendable { case small, medium, large }
    }
}

// As `tally gen` writes it.
extension Event {
    /// The user ordered an item.
    ///
    /// Tracks `menu_item_ordered`.
    ///
    /// - Parameters:
    ///   - itemName: `item_name`
    ///   - size: `size`
    public static func menuItemOrdered(
        itemName: String, size: PlannedEvents.MenuItemOrdered.Size? = nil
    ) -> Event {
        var properties: [String: PropertyValue] = [
            "item_name": .string(itemName)
        ]
        if let value = size { properties["size"] = .string(value.rawValue) }
        return Event(kind: .track, name: "menu_item_ordered", properties: properties)
    }
}

/// PlanCoverage.countChanges(since:).
func countChangesExample(coverage: PlanCoverage, baseline: PlanCoverage) {
    for change in coverage.countChanges(since: baseline) { print(change) }
    // track "login_tapped" was seen 4 times in the baseline, 8 now
}

/// PlanCoverage.
func coverageExample(plan: TrackingPlan, recordedEvents: [Event], baseline: PlanCoverage) {
    let coverage = PlanCoverage(plan: plan, events: recordedEvents)
    print(coverage.renderTable())  // a terminal table
    let regressions = coverage.regressions(since: baseline)
    _ = regressions
}

/// PlanExport.
func exportExample() throws {
    let plan = try TrackingPlan(contentsOf: URL(fileURLWithPath: "tracking-plan.yaml"))
    let export = try PlanExport(plan, format: .iglu(vendor: "com.example"))
    for file in export.files { print(file.path) }  // schemas/com.example/checkout_started/jsonschema/1-0-0
}

/// PlanLoader.
func planLoaderExample() throws {
    let result = PlanLoader.load(contentsOf: URL(fileURLWithPath: "tracking-plan.yaml"))
    for finding in result.diagnostics { print(finding) }  // plan.yaml:12:7: error: ...
    let plan = try result.get()
    _ = plan
}

/// TrackingPlan.init(text:).
@Test func planFromText() throws {
    // swift-format-ignore
    let plan = try TrackingPlan(text: """
        version: 1
        events:
          - name: app_opened
            description: The app came to the foreground.
        """)
    #expect(plan.events.count == 1)
}

/// PropertyName.
@Test func propertyNamesCompareByScalars() {
    let composed: PropertyName = "caf\u{E9}"
    let decomposed: PropertyName = "cafe\u{301}"
    print(composed == decomposed)  // false
    print(composed.string == decomposed.string)  // true: String compares canonically
    #expect(composed != decomposed && composed.string == decomposed.string)
}

/// PropertySchema.
func propertySchemaExample() {
    let price = PropertySchema(types: [.number], minimum: 0)
    let toppings = PropertySchema(types: [.array], items: PropertySchema(types: [.string]), maxItems: 10)
    _ = (price, toppings)
}

/// SchemaNumber.
func schemaNumberExample() {
    let price = PropertySchema(types: [.number], minimum: 0, multipleOf: 0.01)
    let id = PropertySchema(types: [.integer], maximum: SchemaNumber(json: "18446744073709551615"))
    _ = (price, id)
}

/// TrackingPlan.personalDataProcessor(hash:).
func personalDataProcessorExample(
    plan: TrackingPlan, sha256: @escaping @Sendable (String) -> String, destinations: [any Destination]
) {
    let analytics = AnalyticsClient(
        processors: [plan.personalDataProcessor(hash: sha256)], destinations: destinations)
    _ = analytics
}

/// TrackingPlan.privacyDiagnostics().
func privacyDiagnosticsExample(plan: TrackingPlan) {
    for finding in plan.privacyDiagnostics() { print(finding) }
    // plan.yaml:9:7: error: Property 'email' of 'signed_up' holds e-mail addresses (format: email) but ...
}

/// TrackingPlan.rules.
func rulesExample(planURL: URL) throws {
    // In a test: the generated rules are the plan's.
    #expect(try TrackingPlan(contentsOf: planURL).rules == PlannedEvents.rules)
}

/// TrackingPlan.
func trackingPlanExample() throws {
    let plan = try TrackingPlan(contentsOf: URL(fileURLWithPath: "tracking-plan.yaml"))
    let validator = PlanValidator(plan: plan)
    let violations = validator.validate(.menuItemOrdered(itemName: "Pizza"))
    _ = violations
}

/// UncheckedKeyword.
func uncheckedKeywordExample(url: URL) {
    let result = PlanLoader.load(contentsOf: url)
    for keyword in result.plan?.uncheckedKeywords ?? [] {
        print(keyword)  // plan.yaml:14:9: 'minLenght' is not a keyword Tally knows; did you mean 'minLength'?
    }
}

/// PrivacyManifest.
func privacyManifestExample(plan: TrackingPlan, appManifestURL: URL) throws {
    let manifest = PrivacyManifest(plan: plan)
    print(manifest.propertyListText)  // the entries, as an XML property list
    let gaps = try manifest.gaps(in: Data(contentsOf: appManifestURL))  // what the app's file lacks
    _ = gaps
}

/// PlanValidationProcessor.
func validationProcessorExample(plan: TrackingPlan, firebase: any FirebaseAnalyticsAdapter, logger: Logger) {
    let analytics = AnalyticsClient(
        processors: [.redact(keys: ["email"]), .validate(against: plan, mode: .report)],
        destinations: [FirebaseDestination(adapter: firebase)],
        configuration: .init(onProblem: { problem in logger.warning("\(problem)") })
    )
    _ = analytics
}

/// PlanValidationProcessor.Stage.
func validationStageExample(
    plan: TrackingPlan, destinations: [any Destination], sha256: @escaping @Sendable (String) -> String
) {
    let analytics = AnalyticsClient(
        processors: [.validate(against: plan, mode: .drop, stage: .tracked)],
        destinations: destinations, configuration: .init(rules: PlannedEvents.rules, hash: sha256))
    _ = analytics
}

/// PlanValidationProcessor.Mode.drop.
func validationDropExample(plan: TrackingPlan, destinations: [any Destination]) {
    let analytics = AnalyticsClient(
        processors: [.validate(against: plan, mode: .drop)], destinations: destinations)
    _ = analytics
}

/// PlanValidator.
func planValidatorExample(plan: TrackingPlan, spy: AnalyticsSpy) {
    let validator = PlanValidator(plan: plan)
    let violations = validator.validate(Event("menu_item_ordered", ["item_name": "Pizza"]))
    #expect(violations.isEmpty)

    // Many events at once, for recordings and test expectations:
    let all = validator.validate(spy.events)
    _ = all
}

/// PlanValidator.validate(_:consent:).
func validateConsentExample(validator: PlanValidator, record: Record) {
    let violations = validator.validate(record.event, consent: record.envelope.consent)
    // [sentWithoutConsent: "sent while the user's consent was not_asked (consent required for advertising)..."]
    _ = violations
}

/// PlanValidator.validate(_:recordedAt:consent:).
func validateStageExample(validator: PlanValidator, record: Record) {
    // A spy recorded signed_up with the address in the clear; the plan says hash it: no violation.
    let violations = validator.validate(record.event, recordedAt: record.stage, consent: record.envelope.consent)
    _ = violations
}

/// PlanValidator.plannedEvent(for:).
func plannedEventExample(validator: PlanValidator, event: Event) {
    var event = event
    // A vendor's format names no purpose: give the event the one its plan entry says.
    if let planned = validator.plannedEvent(for: event) { event.purpose = planned.purpose }
}

/// TrackingPlan.violations(in:).
func violationsExample(plan: TrackingPlan, destination: InMemoryDestination) {
    let violations = plan.violations(in: destination.events)
    _ = violations
}

/// PlanViolation.
func planViolationExample(validator: PlanValidator) {
    let violations = validator.validate(Event("menu_item_ordered", ["quantity": 0]))
    // [missingRequired at /properties/item_name, outOfRange at /properties/quantity (minimum: 1, actual 0)]
    _ = violations
}

/// A logger, as an app has one.
struct Logger {
    func warning(_ message: String) {}
}
