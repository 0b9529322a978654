import Foundation
import Tally
import TallyPlan
import TallyPlanGeneratorFixture
import Testing

/// The TallyPlanGeneratorFixture target compiles only if the build-tool plugin generated its factory from
/// its tracking-plan.yaml; these tests check what that factory makes.
@Suite("The TallyPlanGenerator plugin", .readsPlans)
struct PluginTests {
    // Without the `Plans` trait the plugin generates only an #error (which the fixture does not compile),
    // so PluginProof does not exist and the suite is off.
    #if Plans
    @Test func theGeneratedFactoryTracksThePlannedEvent() throws {
        #expect(PluginProof.event == Event("plugin_proof_tapped", ["button": "ok"]))
    }

    @Test func theGeneratedEventConformsToThePluginsPlan() throws {
        let plan = try TrackingPlan(
            contentsOf: Fixtures.packageRoot.appendingPathComponent(
                "Plugins/TallyPlanGeneratorFixture/tracking-plan.yaml"))
        #expect(PlanValidator(plan: plan).validate(PluginProof.event) == [])
    }
    #endif
}
