#if Collector
import Foundation
import class GRDB.DatabaseQueue
import struct GRDB.DatabaseMigrator
import Hummingbird
import HummingbirdTesting
import Tally
@testable import TallyCollector
import TallyPlan
import TallyTestSupport
import Testing

/// What a Tally record says beyond its event (its consent purpose, the consent it was delivered with, its
/// stage and its origin) survives the collector: stored, served, judged by the plan on arrival as
/// `tally validate` judges it, and exported as records again.
@Suite("Consent, purpose, stage and origin")
struct ConsentAndStageTests {
    /// A plan that gates analytics and advertising and says to hash the address of `signed_up`.
    static let planText = """
        version: 1
        consent: { required: [analytics, advertising] }
        events:
          - name: app_opened
            description: The app came to the foreground.
            purpose: analytics
          - name: ad_clicked
            description: The user opened an ad.
            purpose: advertising
          - name: signed_up
            description: A user signed up.
            purpose: analytics
            properties:
              email: { type: string, personal: { kind: email, rule: hash }, required: true, description: The address. }
          - name: feedback_sent
            description: The user sent feedback.
            purpose: analytics
            properties:
              comment: { type: string, required: true, description: What the user wrote. }
        """
    static let plan = PlanLoader.load(text: planText, file: "plan.yaml").plan!

    /// A Tally record line, as `RecordingDestination` or a spy's run recording writes it.
    static func line(
        _ event: Event, consent: DeliveredConsent? = nil, stage: Record.Stage = .delivered, origin: String? = nil,
        sequence: UInt64
    ) -> [UInt8] {
        let envelope = Envelope(
            event: event, messageId: MessageID(prefix: 33, sequence: sequence),
            timestamp: Date(timeIntervalSince1970: 1_800_000_000 + Double(sequence)), userId: "u1",
            anonymousId: "a1", context: ["app_version": "2.0"], consent: consent)
        return Record(envelope: envelope, source: "app", origin: origin, stage: stage).line
    }

    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func tallyRecordsKeepTheirPurposeConsentStageAndOrigin() async throws {
        try await RouterHarness.run { collector in
            let body =
                Self.line(
                    Event("ad_clicked", ["campaign": "spring"]).needing(.advertising), consent: .denied,
                    origin: "App/Ads.swift:12", sequence: 1)
                + Self.line(
                    Event("signed_up", ["email": "ada@example.com"]), stage: .tracked,
                    origin: "Tests/SignUpTests.swift:9", sequence: 2)
                + Self.line(Event("app_opened"), consent: .notAsked, sequence: 3)
                + Self.line(Event("app_opened"), sequence: 4)
            #expect(try await collector.send(.post, "/tally/records", body: body).status == .ok)
            let events = try await collector.events()
            #expect(events.map { $0["purpose"] } == ["advertising", "analytics", "analytics", "analytics"])
            #expect(events.map { $0["consent"] } == ["denied", PropertyValue.null, "not_asked", PropertyValue.null])
            #expect(events.map { $0["stage"] } == ["delivered", "tracked", "delivered", "delivered"])
            #expect(
                events.map { $0["origin"] }
                    == ["App/Ads.swift:12", "Tests/SignUpTests.swift:9", PropertyValue.null, PropertyValue.null])
        }
    }

    /// Vendors' formats carry no consent and no purpose: without a plan to take the purpose from, the
    /// collector invents none.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func vendorEventsCarryNoConsentAndNoPurpose() async throws {
        try await RouterHarness.run { collector in
            try await collector.post("/v1/track", trackJSON("Signed Up", extra: #","context":{"consent":"granted"}"#))
            try await collector.post("/capture/", #"{"api_key":"k","event":"clicked","distinct_id":"d1"}"#)
            try await collector.post("/2/httpapi", #"{"api_key":"k","events":[{"event_type":"opened","user_id":"u"}]}"#)
            let events = try await collector.events()
            #expect(events.map { $0["source"] } == ["segment", "posthog", "amplitude"])
            for event in events {
                #expect(event["purpose"] == .null)
                #expect(event["consent"] == .null)
                #expect(event["stage"] == "delivered")
                #expect(event["origin"] == .null)
            }
        }
    }

    /// The plan judges each event as `tally validate` judges the record: with the consent it was delivered
    /// with, a spy's tracked event after the plan's personal-data rules, and unmarked personal data found.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func thePlanJudgesWithConsentAndStage() async throws {
        try await RouterHarness.run(plan: Self.plan) { collector in
            let email: [String: PropertyValue] = ["email": "ada@example.com"]
            let body =
                Self.line(Event("app_opened"), consent: .denied, sequence: 1)
                + Self.line(Event("app_opened"), consent: .notRequired, sequence: 2)
                + Self.line(Event("app_opened"), consent: .granted, sequence: 3)
                + Self.line(Event("app_opened"), sequence: 4)
                + Self.line(Event("signed_up", email), stage: .tracked, sequence: 5)
                + Self.line(Event("signed_up", email), consent: .granted, sequence: 6)
            #expect(try await collector.send(.post, "/tally/records", body: body).status == .ok)
            try await collector.post(
                "/v1/track", trackJSON("feedback_sent", properties: #"{"comment":"write to ada@example.com"}"#))
            let kinds = try await collector.events().map { event in
                (event["violations"]?.arrayValue ?? []).compactMap { $0["kind"]?.stringValue }
            }
            #expect(
                kinds == [
                    ["sentWithoutConsent"], ["sentWithoutConsent"], [], [], [], ["personalDataPresent"],
                    ["personalDataUnmarked"],
                ])
        }
    }

    /// `GET /tally/records` answers a session as the records a client would have written: Tally records as
    /// they were posted (only `source` names the API), vendors' events as Tally events without consent.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func aSessionIsExportedAsTallyRecords() async throws {
        try await RouterHarness.run { collector in
            var header = HTTPFields()
            header[CollectorRoutes.sessionHeader] = "export"
            let posted =
                Self.line(
                    Event("ad_clicked", ["campaign": "spring", "price": 9.5]).needing(.advertising), consent: .denied,
                    origin: "App/Ads.swift:12", sequence: 1)
                + Self.line(.identify(userId: "u1", traits: ["plan": "pro"]), stage: .tracked, sequence: 2)
            #expect(try await collector.send(.post, "/tally/records", body: posted, headers: header).status == .ok)
            try await collector.post(
                "/v1/batch",
                batchJSON([
                    #"{"type":"page","name":"Home","userId":"u2","messageId":"m-1","timestamp":"2026-11-24T10:00:00Z"}"#,
                    #"{"type":"alias","userId":"u3","previousId":"u2"}"#,
                ]), headers: header)
            try await collector.post("/v1/track", trackJSON("elsewhere"))

            let (status, lines) = try await collector.client.execute(
                uri: "/tally/records?session=export", method: .get, headers: [:], body: nil
            ) { response in (response.status, Array(response.body.readableBytesView)) }
            #expect(status == .ok)
            let records = try lines.split(separator: UInt8(ascii: "\n")).map { try Record(line: $0) }
            #expect(records.count == 4)
            let sent = try posted.split(separator: UInt8(ascii: "\n")).map { try Record(line: $0) }
            for (exported, original) in zip(records, sent) {
                var expected = original
                expected.source = "tally"
                #expect(exported == expected)
            }
            let page = try #require(records.dropFirst(2).first)
            #expect(page.event == .screen("Home"))
            #expect(page.envelope.userId == "u2")
            #expect(page.envelope.consent == nil)
            #expect(page.stage == .delivered)
            #expect(page.source == "segment")
            #expect(page.envelope.timestamp == ISO8601.date(from: "2026-11-24T10:00:00Z"))
            let alias = try #require(records.last)
            #expect(alias.event == .alias("u3"))
            #expect(alias.envelope.userId == "u2")
        }
    }

    /// The collector's first schema, as it was released: a database of that version holds this.
    static let version1 = """
        CREATE TABLE event (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            received_at INTEGER NOT NULL,
            session TEXT NOT NULL,
            source TEXT NOT NULL,
            type TEXT NOT NULL,
            name TEXT NOT NULL,
            properties TEXT NOT NULL,
            user_id TEXT,
            anonymous_id TEXT,
            group_id TEXT,
            previous_id TEXT,
            message_id TEXT,
            timestamp TEXT,
            context TEXT NOT NULL,
            write_key TEXT,
            violations TEXT
        );
        CREATE INDEX event_by_session ON event(session);
        CREATE UNIQUE INDEX event_by_message_id ON event(session, message_id) WHERE message_id IS NOT NULL;
        """
    static let oneEvent = """
        INSERT INTO event (received_at, session, source, type, name, properties, context)
        VALUES (1800000000000000, 's', 'tally', 'track', 'app_opened', '{}', '{}');
        """

    /// A database written before the collector kept these columns gains them: its events read as delivered
    /// with no purpose or consent, and new records keep theirs.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    @Test func anOlderDatabaseIsMigrated() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("events.sqlite").path
        try Self.writeOlderDatabase(at: path, migrations: [("v1: events", Self.version1 + Self.oneEvent)])
        try await withLiveCollector(Collector.Configuration(database: .file(path))) { collector in
            let answer = try await HTTP.send(
                "POST", collector.url.appendingPathComponent("tally/records"),
                body: Data(Self.line(Event("app_opened"), consent: .granted, stage: .tracked, sequence: 1)),
                headers: ["Tally-Session": "s"])
            #expect(answer.status == 200)
            let read = try await HTTP.send("GET", collector.url.appendingPathComponent("tally/events")).json
            let events = read["events"]?.arrayValue ?? []
            #expect(events.compactMap { $0["id"] } == [1, 2])
            #expect(events.map { $0["consent"] } == [PropertyValue.null, "granted"])
            #expect(events.map { $0["purpose"] } == [PropertyValue.null, "analytics"])
            #expect(events.map { $0["stage"] } == ["delivered", "tracked"])
        }
    }

    /// Leaves at `path` a database as an earlier collector left it: `migrations` (identifier and SQL, as
    /// that version registered them) applied in order. What a test of a later migration starts from; the
    /// test keeps the earlier schema as it was released, so editing a released migration in place fails it.
    private static func writeOlderDatabase(at path: String, migrations: [(identifier: String, sql: String)]) throws {
        var migrator = DatabaseMigrator()
        for (identifier, sql) in migrations {
            migrator.registerMigration(identifier) { db in try db.execute(sql: sql) }
        }
        let queue = try DatabaseQueue(path: path)
        try migrator.migrate(queue)
        try queue.close()
    }
}
#endif
