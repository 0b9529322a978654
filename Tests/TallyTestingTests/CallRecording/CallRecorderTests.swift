import Foundation
import Tally
import TallyTesting
import Testing

private typealias Fixtures = CallRecordingFixtures

/// What a recorder keeps of each call, and how it reads back.
@Suite struct CallRecorderTests: CallRecordingSuite {
    @Test func theSeedSpyInOneLinePerMethod() throws {
        let hippo = Fixtures.HippoAnalyticsClientSpy()
        let logger = Fixtures.EventLogger(hippoAnalyticsClient: hippo)

        logger.log(name: "test", properties: ["key": "value"])

        // The seed's five assertions and two casts, without the casts.
        #expect(hippo.calls.count == 1)
        let call = try #require(hippo.calls.all.first)
        #expect(call.method == "logEvent(named:properties:)")
        #expect(call.arguments == ["test", ["key": "value"]])
        #expect(call.arguments[1].value?.objectValue?["key"] == "value")
    }

    @Test func theMethodNameIsTheCallersFunction() {
        let hippo = Fixtures.HippoAnalyticsClientSpy()
        hippo.logEvent(named: "a", properties: nil)
        hippo.flush()
        hippo.calls.record("custom name", arguments: 1)
        #expect(hippo.calls.all.map(\.method) == ["logEvent(named:properties:)", "flush()", "custom name"])
    }

    @Test func argumentsBecomeJSONValuesWherePossible() {
        let calls = CallRecorder()
        let date = Date(timeIntervalSince1970: 0)
        let url = URL(string: "https://example.com/a")!
        let optionalName: String? = "Ada"
        let noProperties: [String: Any]? = nil
        calls.record(
            "everything", arguments: "s", 1, 2.5, true, Int8(3), Float(0.5), date, url, optionalName, noProperties,
            nil, [1, 2], ["key": ["nested": [true]]] as [String: Any])
        #expect(
            calls.all.first?.arguments == [
                "s", 1, 2.5, true, 3, 0.5, "1970-01-01T00:00:00.000Z", "https://example.com/a", "Ada", nil, nil,
                [1, 2],
                ["key": ["nested": [true]]],
            ])
    }

    @Test func aCollectionHoldingAnythingElseIsKeptWholeAsItsDump() {
        let calls = CallRecorder()
        let properties: [String: Any] = ["user": Fixtures.User(id: 1, name: "Ada"), "n": 1]
        calls.record("f(_:_:_:)", arguments: properties, [1, "x"] as [Any], [1, Fixtures.Form(id: "a")] as [Any])
        let arguments = calls.all.first?.arguments
        #expect(arguments?[0].value == nil)
        #expect(arguments?[0].description.contains("id: 1, name: \"Ada\"") == true)
        #expect(arguments?[1] == [1, "x"])
        #expect(arguments?[2].value == nil)
    }

    @Test func otherArgumentsAreKeptAsTheirCustomDump() {
        final class Box: @unchecked Sendable { var value = 1 }
        let calls = CallRecorder()
        let box = Box()
        calls.record("show(_:_:)", arguments: Fixtures.User(id: 1, name: "Ada"), box)
        box.value = 2  // the recording keeps the argument as it was when the call happened

        let arguments = calls.all.first?.arguments
        #expect(arguments?[0] == .dump("CallRecordingFixtures.User(\n  id: 1,\n  name: \"Ada\"\n)"))
        #expect(arguments?[0] == CallRecorder.Argument(Fixtures.User(id: 1, name: "Ada")))
        #expect(arguments?[1].description.contains("value: 1") == true)
        #expect(arguments?[0].value == nil)
    }

    @Test func argumentsAreLiteralsAndPrintAsSwift() {
        let arguments: [CallRecorder.Argument] = ["a\"b", 1, 2.5, false, nil, [1, "x"], ["b": 1, "a": [:]]]
        #expect(
            arguments.map(\.description) == [
                #""a\"b""#, "1", "2.5", "false", "nil", #"[1, "x"]"#, #"["a": [:], "b": 1]"#,
            ])
        #expect(CallRecorder.Argument(CallRecorder.Argument.dump("X")) == .dump("X"))
        #expect(
            CallRecorder.Argument.dump("User(\n  id: 1,\n  tags: [\n    \"a\"\n  ]\n)").description
                == #"User(id: 1, tags: ["a"])"#)
    }

    @Test func aCallPrintsWithItsMethodsLabels() {
        let calls = CallRecorder()
        calls.record("logEvent(named:properties:)", arguments: "test", ["key": "value"])
        calls.record("loadFeedbackForm(_:)", arguments: "some-id")
        calls.record("move(_:to:)", arguments: 1, 2)
        calls.record("flush()")
        calls.record("delegate", arguments: nil)
        calls.record("fetch(id:)", arguments: 1, 2)
        calls.record("fetch(id:)")
        #expect(
            calls.all.map(\.description) == [
                #"logEvent(named: "test", properties: ["key": "value"])"#,
                #"loadFeedbackForm("some-id")"#,
                "move(1, to: 2)",
                "flush()",
                "delegate(nil)",
                "fetch(id:) with (1, 2)",
                "fetch(id:) with ()",
            ])
    }

    @Test func orderIsSharedByEveryRecorder() {
        let first = CallRecorder()
        let second = CallRecorder()
        first.record("a()")
        second.record("b()")
        first.record("c()")
        let orders = [first.all[0], second.all[0], first.all[1]].map(\.order)
        #expect(orders == orders.sorted())
        #expect(Set(orders).count == 3)
    }

    @Test func callsAreReadByMethod() {
        let hippo = Fixtures.HippoAnalyticsClientSpy()
        hippo.logEvent(named: "a", properties: nil)
        hippo.flush()
        hippo.logEvent(named: "b", properties: nil)
        #expect(hippo.calls.all(to: "logEvent(named:properties:)").map { $0.arguments[0] } == ["a", "b"])
        #expect(hippo.calls.count(to: "logEvent(named:properties:)") == 2)
        #expect(hippo.calls.count(to: "flush()") == 1)
        #expect(hippo.calls.count(to: "nothing()") == 0)
        #expect(hippo.calls.count == 3)
    }

    @Test func clearForgetsCallsButKeepsStubsAndMode() {
        let spy = Fixtures.FeedbackServiceSpy(mode: .relaxed)
        spy.calls.stub("pendingCount()", returning: 3)
        _ = spy.pendingCount()
        spy.calls.expectCalled("pendingCount()")
        spy.calls.clear()
        #expect(spy.calls.all.isEmpty)
        #expect(spy.calls.mode == .relaxed)
        spy.calls.expectNothingElse()
        #expect(spy.pendingCount() == 3)
        #expect(spy.calls.count == 1)
    }
}
