import Foundation
import TallyPlan

/// `Examples/tracking-plan.yaml`, loaded once for this test target.
enum ExamplesPlan {
    /// The plan file, four folders up from this file (Examples/<Scenario>/Tests/<Target>/).
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tracking-plan.yaml")

    private static let loaded = Result { try TrackingPlan(contentsOf: url) }
    private static let validating = Result { try PlanValidator(plan: loaded.get()) }

    /// The plan; throws its load error (with file, line and column) if it has one.
    static func plan() throws -> TrackingPlan { try loaded.get() }

    /// A validator for the plan; throws the plan's load error (with file, line and column) if it has one.
    static func validator() throws -> PlanValidator { try validating.get() }
}
