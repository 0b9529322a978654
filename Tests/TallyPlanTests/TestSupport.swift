import Foundation
import Tally
import TallyPlan
import Testing

/// Shared helpers for the TallyPlan tests.
enum Fixtures {
    /// The directory of the committed fixtures, read through the test bundle's resources.
    static var directory: URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
    }

    static var fixturePlanURL: URL { directory.appendingPathComponent("fixture-plan.yaml") }
    static var fixturePlanJSONURL: URL { directory.appendingPathComponent("fixture-plan.json") }

    /// The fixture plan; it must load without errors.
    static func fixturePlan() throws -> TrackingPlan {
        try TrackingPlan(contentsOf: fixturePlanURL)
    }

    /// The source file next to this one, found through `#filePath` (sources are not resources).
    static func sourceFile(_ relativePath: String, filePath: StaticString = #filePath) -> URL {
        URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent().appendingPathComponent(relativePath)
    }

    /// The package root: this file is `Tests/TallyPlanTests/TestSupport.swift` in it.
    static func packageRoot(filePath: StaticString = #filePath) -> URL {
        URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static var packageRoot: URL { packageRoot() }

    /// A plan with one track event `e` whose only property `p` has `schema` (a YAML flow mapping).
    static func singleProperty(_ schema: String, eventExtras: String = "") throws -> TrackingPlan {
        try TrackingPlan(
            text: """
                version: 1
                events:
                  - name: e
                    description: One property.\(eventExtras)
                    properties:
                      p: \(schema)
                """)
    }

    /// A fresh temporary directory inside this test run's own folder, which is removed when the test
    /// process exits.
    static func temporaryDirectory() throws -> URL {
        let url = runFolder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The folder every temporary directory of this process lives in; only it is removed at exit.
    static let runFolder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("TallyPlanTests-\(UUID().uuidString)")
        atexit { try? FileManager.default.removeItem(at: Fixtures.runFolder) }
        return url
    }()

    /// Writes `text` to a new temporary file and returns its path.
    static func write(_ text: String, name: String = "plan.yaml") throws -> URL {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }
}

/// A thread-safe list for collecting what callbacks receive.
final class Collected<Element: Sendable>: @unchecked Sendable {
    // NSLock guards `items`; every access goes through it.
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ item: Element) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    var all: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

extension TrackingPlan {
    /// The plan without source locations, to compare plans read from different files.
    var withoutLocations: TrackingPlan {
        var plan = self
        for index in plan.events.indices {
            plan.events[index].location = nil
            plan.events[index].propertyLocations = [:]
        }
        return plan
    }
}

extension Trait where Self == ConditionTrait {
    /// Off, saying why, in a build without the `Plans` trait: there no plan text can be read
    /// (`PlanLoader.planReadingNeedsTrait`), so a plain `swift test` skips the suites that read plans.
    static var readsPlans: Self {
        .enabled(
            if: PlanLoader.canReadPlans,
            "needs the package trait Plans (Yams): swift test --traits Plans (CI enables every trait)")
    }
}
