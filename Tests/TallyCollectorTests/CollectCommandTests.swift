// Starts processes: `Process` exists on macOS and Linux only (iOS, tvOS and watchOS have none).
#if os(macOS) || os(Linux)

#if Collector
import Foundation
import Tally
import TallyTestSupport
import Testing

/// `tally collect` as a built binary: what it prints, how it stops, how it fails.
@Suite(
    "tally collect, the built binary", .timeLimit(.minutes(2)))
struct CollectCommandTests {
    @Test func printsWhereItListensFirstAndStopsOnSIGTERM() async throws {
        let folder = try TemporaryFolder()
        let collector = try CollectorProcess(["--port", "0", "--database", folder.file("events.sqlite").path])
        let url = try await collector.listeningURL()
        #expect(url.host == "127.0.0.1")
        let answer = try await HTTP.post(url.appendingPathComponent("v1/track"), #"{"event":"A","userId":"u"}"#)
        #expect(answer.status == 200)
        let (status, reason) = await collector.stop(with: SIGTERM)
        #expect(reason == .exit)
        #expect(status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.file("events.sqlite").path))
    }

    @Test func validatesOnArrivalWithAPlan() async throws {
        let folder = try TemporaryFolder()
        let plan = folder.file("plan.yaml")
        try "version: 1\nevents:\n  - name: Signed Up\n    description: A user signed up.\n".write(
            to: plan, atomically: true, encoding: .utf8)
        let collector = try CollectorProcess(["--port", "0", "--database", ":memory:", "--plan", plan.path])
        let url = try await collector.listeningURL()
        _ = try await HTTP.post(url.appendingPathComponent("v1/track"), #"{"event":"Signed Upp","userId":"u"}"#)
        let events = try await HTTP.send("GET", url.appendingPathComponent("tally/events")).json
        #expect(events["events"]?.arrayValue?.first?["violations"]?.arrayValue?.first?["kind"] == "unknownEvent")
        await collector.stop(with: SIGINT)
    }

    @Test(arguments: [
        (["--plan", "/nonexistent/plan.yaml"], Int32(66), "No such file"),
        (["--port", "70000"], Int32(64), "--port must be from 0 to 65535"),
        (["--database", "/"], Int32(73), "Cannot open the database /"),
    ])
    func failsWithAClearMessageAndExitCode(_ arguments: [String], _ code: Int32, _ message: String) async throws {
        let collector = try CollectorProcess(["--port", "0"] + arguments)
        let (status, _) = await collector.exit()
        #expect(status == code)
        let errors = await collector.standardError()
        #expect(errors.contains(message), "\(errors)")
    }

    @Test func anInvalidPlanExits65() async throws {
        let folder = try TemporaryFolder()
        let plan = folder.file("plan.yaml")
        try "version: 1\nevents: 7\n".write(to: plan, atomically: true, encoding: .utf8)
        let collector = try CollectorProcess(["--port", "0", "--plan", plan.path])
        #expect(await collector.exit().status == 65)
    }

    @Test func aPortInUseExits69() async throws {
        let first = try CollectorProcess(["--port", "0", "--database", ":memory:"])
        let url = try await first.listeningURL()
        let second = try CollectorProcess(["--port", String(url.port!), "--database", ":memory:"])
        #expect(await second.exit().status == 69)
        #expect(await second.standardError().contains("Cannot listen on 127.0.0.1:\(url.port!)"))
        await first.stop(with: SIGTERM)
    }
}
#endif

#endif
