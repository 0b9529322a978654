import Foundation

/// Reads plan files, YAML or JSON, and reports every problem with its file, line and column.
///
/// Most code calls ``TrackingPlan/init(contentsOf:allowingUncheckedKeywords:)``, which throws on the first
/// load that has errors.
/// `PlanLoader` is for tools that want everything: the plan when it is usable, and every error and
/// warning either way, as `tally lint` prints them.
///
/// ```swift
/// let result = PlanLoader.load(contentsOf: URL(fileURLWithPath: "tracking-plan.yaml"))
/// for finding in result.diagnostics { print(finding) }   // plan.yaml:12:7: error: ...
/// let plan = try result.get()
/// ```
public enum PlanLoader {
    /// Reads the file at `url`.
    ///
    /// - Parameters:
    ///   - url: a file URL.
    ///   - displayName: the name locations use; default the URL's relative path, so a path given on the
    ///     command line prints as given.
    public static func load(contentsOf url: URL, displayName: String? = nil) -> PlanLoadResult {
        let file = displayName ?? url.relativePath
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
                return PlanLoadResult(failure: PlanError(.fileNotFound, "No such file", at: SourceLocation(file: file)))
            }
            let reason =
                isDirectory.boolValue
                ? "It is a directory, not a file" : "The file cannot be read: \(error.localizedDescription)"
            return PlanLoadResult(failure: PlanError(.unreadable, reason, at: SourceLocation(file: file)))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return PlanLoadResult(
                failure: PlanError(.syntax, "The file is not UTF-8 text", at: SourceLocation(file: file)))
        }
        return load(text: text, file: file)
    }

    /// Reads a plan from text in YAML or JSON.
    ///
    /// Reading plan text needs Tally's `Plans` trait (the `CLI` and `Collector` traits enable it). Without
    /// it, every load fails with one ``PlanError/Kind/unreadable`` error that names the trait and the
    /// dependency line to write; see <doc:TrackingPlans>.
    ///
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - file: the name locations use, such as `plan.yaml`.
    public static func load(text: String, file: String) -> PlanLoadResult {
        #if Plans
        let document: PlanDocument
        do {
            document = try PlanDocument(text: text, file: file)
        } catch {
            return PlanLoadResult(failure: error)
        }
        var reader = PlanReader(document: document)
        let plan = reader.readPlan()
        let diagnostics = reader.diagnostics.sorted { $0.location < $1.location }
        let hasErrors = plan == nil || diagnostics.contains { $0.severity == .error }
        return PlanLoadResult(
            plan: hasErrors ? nil : plan, diagnostics: diagnostics, failureKind: hasErrors ? .invalidPlan : nil)
        #else
        return PlanLoadResult(
            failure: PlanError(.unreadable, planReadingNeedsTrait, at: SourceLocation(file: file)))
        #endif
    }

    /// Whether this build of TallyPlan reads plan text: `true` with Tally's `Plans` trait (or `CLI` or
    /// `Collector`, which enable it), `false` without it, when every load fails with
    /// ``planReadingNeedsTrait``.
    package static var canReadPlans: Bool {
        #if Plans
        true
        #else
        false
        #endif
    }

    /// Why a load fails in a build without the `Plans` trait: the trait to enable and the dependency line
    /// that enables it. Plans are YAML or JSON read through Yams, which Tally resolves only with the trait,
    /// so that an app's test target depending on TallyTesting alone never fetches it.
    package static let planReadingNeedsTrait = """
        Reading a tracking plan needs Tally's package trait 'Plans' (it brings the Yams dependency); \
        enable it on your dependency: .package(url: "https://github.com/<owner>/tally", branch: "main", \
        traits: ["Plans"]). The 'CLI' and 'Collector' traits enable it too.
        """
}

/// What loading a plan file found: the plan when it has no errors, and every finding in file order.
public struct PlanLoadResult: Sendable, Hashable {
    /// The plan, or nil when there are errors.
    public var plan: TrackingPlan?
    /// Every error and warning, in file order.
    public var diagnostics: [PlanDiagnostic]
    /// What kind of failure the errors amount to, or nil when there are none.
    public var failureKind: PlanError.Kind?

    /// Creates a result.
    public init(plan: TrackingPlan?, diagnostics: [PlanDiagnostic], failureKind: PlanError.Kind?) {
        self.plan = plan
        self.diagnostics = diagnostics
        self.failureKind = failureKind
    }

    init(failure: PlanError) {
        self.init(plan: nil, diagnostics: failure.diagnostics, failureKind: failure.kind)
    }

    /// The errors among ``diagnostics``.
    public var errors: [PlanDiagnostic] { diagnostics.filter { $0.severity == .error } }
    /// The warnings among ``diagnostics``.
    public var warnings: [PlanDiagnostic] { diagnostics.filter { $0.severity == .warning } }

    /// The plan, or the ``PlanError`` holding every error.
    ///
    /// A plan with keywords Tally does not check (``TrackingPlan/uncheckedKeywords``) is refused too, with one
    /// error per keyword at its location, unless `allowingUncheckedKeywords` is true: validating against it
    /// would pass events that break those keywords.
    ///
    /// - Parameter allowingUncheckedKeywords: return such a plan anyway; its validation skips those keywords.
    /// - Throws: ``PlanError`` with every error (kind ``PlanError/Kind/invalidPlan`` for unchecked keywords).
    public func get(allowingUncheckedKeywords: Bool = false) throws(PlanError) -> TrackingPlan {
        guard let plan, failureKind == nil else {
            throw PlanError(failureKind ?? .invalidPlan, diagnostics: diagnostics)
        }
        guard allowingUncheckedKeywords || plan.uncheckedKeywords.isEmpty else {
            throw PlanError(.invalidPlan, diagnostics: plan.uncheckedKeywords.map(\.refusal))
        }
        return plan
    }
}

extension TrackingPlan {
    /// Loads a plan from a YAML or JSON file.
    ///
    /// Warnings are ignored here; use ``PlanLoader/load(contentsOf:displayName:)`` or `tally lint`
    /// to see them. A plan with keywords Tally does not check (`$ref`, `anyOf`, a misspelt `minLenght`, an
    /// unknown `format`) is refused, since validating against it would pass events that break them.
    ///
    /// ```swift
    /// let plan = try TrackingPlan(contentsOf: URL(fileURLWithPath: "tracking-plan.yaml"))
    /// ```
    ///
    /// - Parameters:
    ///   - url: a file URL.
    ///   - allowingUncheckedKeywords: load such a plan anyway; ``TrackingPlan/uncheckedKeywords`` lists
    ///     what its validation skips.
    /// - Throws: ``PlanError`` with every error, each with file, line and column; in a build without Tally's
    ///   `Plans` trait, one ``PlanError/Kind/unreadable`` error naming the trait to enable.
    public init(contentsOf url: URL, allowingUncheckedKeywords: Bool = false) throws(PlanError) {
        self = try PlanLoader.load(contentsOf: url).get(allowingUncheckedKeywords: allowingUncheckedKeywords)
    }

    /// Loads a plan from YAML or JSON text.
    ///
    /// ```swift
    /// let plan = try TrackingPlan(text: """
    ///     version: 1
    ///     events:
    ///       - name: app_opened
    ///         description: The app came to the foreground.
    ///     """)
    /// ```
    ///
    /// - Parameters:
    ///   - text: the plan, YAML or JSON.
    ///   - file: the name error locations use.
    ///   - allowingUncheckedKeywords: load a plan with keywords Tally does not check; see
    ///     ``init(contentsOf:allowingUncheckedKeywords:)``.
    /// - Throws: ``PlanError`` with every error, each with file, line and column; in a build without Tally's
    ///   `Plans` trait, one ``PlanError/Kind/unreadable`` error naming the trait to enable.
    public init(text: String, file: String = "plan.yaml", allowingUncheckedKeywords: Bool = false) throws(PlanError) {
        self = try PlanLoader.load(text: text, file: file).get(allowingUncheckedKeywords: allowingUncheckedKeywords)
    }
}
