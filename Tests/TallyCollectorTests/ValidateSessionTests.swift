// Starts processes: `Process` exists on macOS and Linux only (iOS, tvOS and watchOS have none).
#if os(macOS) || os(Linux)

#if Collector
import Foundation
import Tally
@testable import TallyCollector
import TallyPlan
import TallyTestSupport
import Testing

/// `tally validate` on a collector session: the session saved with `GET /tally/records` is a recording the
/// built binary reads, and it reports what the collector reported on arrival.
@Suite("tally validate on a collector session", .timeLimit(.minutes(2)))
struct ValidateSessionTests {
    /// `GET /tally/records?session=…` written to `file`, as `curl … > file` would.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    static func save(_ session: String, of collector: Collector, to file: URL) async throws {
        var components = URLComponents(
            url: collector.url.appendingPathComponent("tally/records"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "session", value: session)]
        let answer = try await HTTP.send("GET", components.url!)
        #expect(answer.status == 200)
        try answer.body.write(to: file)
    }

    /// Runs the built `tally` off Swift's cooperative pool and waits for it.
    static func tally(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let binary = try CollectorProcess.requireBinary()
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runToEnd(binary, arguments) })
            }
        }
    }

    /// How many violations of each kind a `tally validate --format json` report counts.
    static func kinds(inReport output: String) throws -> [String: Int] {
        let report = try PropertyValue(json: output)
        var kinds: [String: Int] = [:]
        for group in report["events"]?.arrayValue ?? [] {
            for violation in group["violations"]?.arrayValue ?? [] {
                kinds[violation["kind"]?.stringValue ?? "", default: 0] += violation["count"]?.intValue ?? 0
            }
        }
        return kinds
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func tallyValidateReportsWhatLeftWithoutConsentAndPassesACleanSession() async throws {
        let folder = try TemporaryFolder()
        let plan = folder.file("tracking-plan.yaml")
        try ConsentAndStageTests.planText.write(to: plan, atomically: true, encoding: .utf8)
        let dirty = folder.file("dirty.jsonl")
        let clean = folder.file("clean.jsonl")
        var collectorKinds: [String: Int] = [:]
        try await withLiveCollector(Collector.Configuration(plan: ConsentAndStageTests.plan)) { collector in
            // The app forgot to gate analytics; a wrapper bypassed the client with an ad the user refused; a
            // spy's record with the address in the clear (the plan says hash: fine before the client); a
            // Segment client's feedback holding an address in a property nobody marked.
            var forgetful = AnalyticsClient.Configuration()
            forgetful.consentRequired = [.advertising]
            let app = AnalyticsClient(
                destinations: [RecordingDestination.collector(collector.url, session: "dirty", source: "app")],
                configuration: forgetful)
            app.track("app_opened")
            await app.flush()
            let records =
                ConsentAndStageTests.line(Event("ad_clicked").needing(.advertising), consent: .denied, sequence: 1)
                + ConsentAndStageTests.line(
                    Event("signed_up", ["email": "ada@example.com"]), stage: .tracked,
                    origin: "Tests/SignUpTests.swift:9", sequence: 2)
            let posted = try await HTTP.send(
                "POST", collector.url.appendingPathComponent("tally/records"), body: Data(records),
                headers: ["Tally-Session": "dirty"])
            #expect(posted.status == 200)
            let feedback = trackJSON(
                "feedback_sent", properties: #"{"comment":"write to ada@example.com"}"#,
                extra: #","context":{"tally_session":"dirty"}"#)
            #expect(try await HTTP.post(collector.url.appendingPathComponent("v1/track"), feedback).status == 200)

            // A client that waited for the user's grant.
            var careful = AnalyticsClient.Configuration()
            careful.consentRequired = [.analytics, .advertising]
            let cleanApp = AnalyticsClient(
                destinations: [RecordingDestination.collector(collector.url, session: "clean", source: "app")],
                configuration: careful)
            cleanApp.track("app_opened")
            cleanApp.setConsent(.granted, for: .analytics)
            cleanApp.track(Event("feedback_sent", ["comment": "great app"]))
            await cleanApp.flush()

            try await Self.save("dirty", of: collector, to: dirty)
            try await Self.save("clean", of: collector, to: clean)
            let stored = try await HTTP.send(
                "GET", URL(string: collector.url.absoluteString + "/tally/events?session=dirty")!
            ).json
            for event in stored["events"]?.arrayValue ?? [] {
                for violation in event["violations"]?.arrayValue ?? [] {
                    collectorKinds[violation["kind"]?.stringValue ?? "", default: 0] += 1
                }
            }
        }

        let reported = try await Self.tally(["validate", "--plan", plan.path, "--format", "json", dirty.path])
        #expect(reported.status == 1)
        let kinds = try Self.kinds(inReport: reported.output)
        #expect(kinds == ["sentWithoutConsent": 2, "personalDataUnmarked": 1])
        #expect(kinds == collectorKinds, "tally validate and the collector judge the same records alike")
        #expect(try PropertyValue(json: reported.output)["events_checked"] == 4)

        let passed = try await Self.tally(["validate", "--plan", plan.path, clean.path])
        #expect(passed.status == 0, "\(passed.output)")
    }
}
#endif

#endif
