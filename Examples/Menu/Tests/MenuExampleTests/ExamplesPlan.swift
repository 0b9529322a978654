import Foundation
import TallyPlan

/// `Examples/tracking-plan.yaml`, loaded once for this test target.
enum ExamplesPlan {
    /// The plan file, four folders up from this file (Examples/<Scenario>/Tests/<Target>/).
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tracking-plan.yaml")

    private static let loaded = Result { try PlanValidator(plan: TrackingPlan(contentsOf: url)) }

    /// A validator for the plan; throws the plan's load error (with file, line and column) if it has one.
    static func validator() throws -> PlanValidator { try loaded.get() }
}
