// The factory exists only when tally-plan-generator can read the plan: with the `Plans` trait.
#if Plans
import Tally

/// Uses the factory the TallyPlanGenerator plugin generates from `tracking-plan.yaml` in this directory.
/// If the plugin did not run, this target does not compile.
public enum PluginProof {
    /// An event made by the generated factory.
    public static let event: Event = .pluginProofTapped(button: .ok)
}
#endif
