import IssueReporting
import Tally

/// A processor that checks every event against a tracking plan, and reports, drops or fails on the ones
/// that break it.
///
/// Add it to the client's processors, usually last so it sees events as the app's processors leave them:
///
/// ```swift
/// let analytics = AnalyticsClient(
///     processors: [.redact(keys: ["email"]), .validate(against: plan, mode: .report)],
///     destinations: [FirebaseDestination(adapter: firebase)],
///     configuration: .init(onProblem: { problem in logger.warning("\(problem)") })
/// )
/// ```
///
/// It judges events as they are (`Record.Stage.delivered`) by default. A client configured with the plan's
/// rules (`AnalyticsClient.Configuration.rules`) applies them after its processors, so there pass
/// `stage: .tracked`: the processor then judges each event after the plan's personal-data rules, as the
/// client will deliver it (``PlanValidator/validate(_:recordedAt:consent:)``), and does not drop a correct
/// event whose address the client has yet to hash:
///
/// ```swift
/// let analytics = AnalyticsClient(
///     processors: [.validate(against: plan, mode: .drop, stage: .tracked)],
///     destinations: destinations, configuration: .init(rules: PlannedEvents.rules, hash: sha256))
/// ```
///
/// ## Modes
/// | mode | the event | each violation |
/// |---|---|---|
/// | ``Mode/off`` | delivered, not checked | - |
/// | ``Mode/report`` | delivered | a `Problem` with code `Problem.Code.planViolation` and outcome `reported` |
/// | ``Mode/drop`` | dropped; the client counts it under `DropReason.filtered(by: "plan_validation")` | a problem with outcome `dropped` |
/// | ``Mode/failInTests`` | delivered | an issue through IssueReporting: a test failure under XCTest or Swift Testing, a runtime warning in an app |
///
/// ## Where problems go
/// Run by a client, the processor reports through the client's `ProcessingContext`: problems reach
/// `AnalyticsClient.Configuration.onProblem` and `Statistics.recentProblems` like the client's own. An optional
/// `reporter` gets them too, and is the only destination when ``process(_:reportingTo:)`` is called directly.
///
/// ## Failing in tests
/// In ``Mode/failInTests`` the issue is reported at the line that created the processor (the
/// `.validate(against:mode:)` call), because the client runs processors on its own thread, outside the
/// test's call stack. Swift Testing attributes an issue to the running test through task-local state
/// that the client's thread does not have, so tests that call ``process(_:reportingTo:)`` directly, or that use
/// ``PlanValidator`` on recorded events, get the most precise failures.
public struct PlanValidationProcessor: Processor {
    /// What to do with an event that breaks the plan.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// Do not check; deliver every event. For switching validation off in production builds.
        case off
        /// Deliver the event and report each violation as a `Problem`.
        case report
        /// Drop the event (the client counts it) and report each violation as a problem.
        case drop
        /// Deliver the event and report an issue through IssueReporting, so tests fail.
        case failInTests
    }

    /// What happens to events that break the plan.
    public let mode: Mode
    /// Where in the flow the events it sees are judged to be. Default `Record.Stage.delivered`.
    public let stage: Record.Stage
    /// The validator used.
    public let validator: PlanValidator
    private let reporter: (@Sendable (Problem) -> Void)?
    private let callSite: CallSite

    /// Creates a processor.
    ///
    /// - Parameters:
    ///   - validator: the compiled plan.
    ///   - mode: what to do with events that break it.
    ///   - reporter: also receives one problem per violation in ``Mode/report`` and ``Mode/drop``; called on
    ///     the client's worker thread, so keep it quick.
    ///   - stage: how the events it sees are judged: `Record.Stage.delivered` (the default), as they are;
    ///     `Record.Stage.tracked` after the plan's personal-data rules, for a client that applies them
    ///     after its processors (`AnalyticsClient.Configuration.rules`).
    ///   - fileID: where ``Mode/failInTests`` reports its issues; defaults to the caller's location.
    ///   - filePath: see `fileID`.
    ///   - line: see `fileID`.
    ///   - column: see `fileID`.
    public init(
        validator: PlanValidator, mode: Mode, reporter: (@Sendable (Problem) -> Void)? = nil,
        stage: Record.Stage = .delivered, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        self.validator = validator
        self.stage = stage
        self.mode = mode
        self.reporter = reporter
        self.callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `plan_validation`: the name drops are counted under.
    public var name: String { "plan_validation" }

    /// Validates the envelope's event and applies the ``mode``: keeps the event, or drops it in ``Mode/drop``
    /// when it breaks the plan. Problems go to `context` and to the processor's reporter.
    public func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
        validate(envelope) { problem in
            context.report(problem)
            reporter?(problem)
        }
    }

    private func validate(_ envelope: Envelope, report: (Problem) -> Void) -> ProcessingDecision {
        guard mode != .off else { return .keep }
        let violations = validator.validate(envelope.event, recordedAt: stage)
        guard !violations.isEmpty else { return .keep }
        switch mode {
        case .off:
            return .keep
        case .report:
            for violation in violations { report(Problem(violation, outcome: .reported)) }
            return .keep
        case .drop:
            for violation in violations { report(Problem(violation, outcome: .dropped)) }
            return .drop
        case .failInTests:
            let lines = violations.map { "  - \($0.description)" }.joined(separator: "\n")
            let noun = violations.count == 1 ? "violation" : "violations"
            reportIssue(
                "Event breaks the tracking plan (\(violations.count) \(noun)):\n\(lines)",
                fileID: callSite.fileID, filePath: callSite.filePath, line: callSite.line, column: callSite.column)
            return .keep
        }
    }

    private struct CallSite: Sendable {
        let fileID: StaticString
        let filePath: StaticString
        let line: UInt
        let column: UInt
    }
}

extension Processor where Self == PlanValidationProcessor {
    /// Checks every event against `plan`. See ``PlanValidationProcessor`` for the modes, and for `stage`
    /// (`.tracked` in a client configured with the plan's rules).
    ///
    /// ```swift
    /// let analytics = AnalyticsClient(
    ///     processors: [.validate(against: plan, mode: .drop)], destinations: destinations)
    /// ```
    public static func validate(
        against plan: TrackingPlan, mode: PlanValidationProcessor.Mode,
        reporter: (@Sendable (Problem) -> Void)? = nil, stage: Record.Stage = .delivered,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> PlanValidationProcessor {
        PlanValidationProcessor(
            validator: PlanValidator(plan: plan), mode: mode, reporter: reporter, stage: stage, fileID: fileID,
            filePath: filePath, line: line, column: column)
    }
}

extension Problem.Code {
    /// An event broke the tracking plan. Reported by ``PlanValidationProcessor``.
    public static let planViolation = Problem.Code("plan_violation")
}

extension Problem {
    /// A problem describing a plan violation: the violation's message, event name and path.
    public init(_ violation: PlanViolation, outcome: Outcome) {
        self.init(
            .planViolation, "\(violation.kind.rawValue): \(violation.message)", outcome: outcome,
            eventName: violation.eventName, path: violation.path.isEmpty ? nil : violation.path)
    }
}
