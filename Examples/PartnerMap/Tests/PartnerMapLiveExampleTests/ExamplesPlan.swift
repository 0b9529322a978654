import Foundation
import TallyPlan

/// `Examples/tracking-plan.yaml`, loaded once for this test target.
enum ExamplesPlan {
    /// The plan file, found from this source file's path: Examples/PartnerMap/Tests/PartnerMapLiveExampleTests/ -> Examples/.
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tracking-plan.yaml")

    private static let loaded = Result { try PlanValidator(plan: TrackingPlan(contentsOf: url)) }

    /// A validator for the plan; throws the plan's load error (with file, line and column) if it has one.
    static func validator() throws -> PlanValidator { try loaded.get() }
}
