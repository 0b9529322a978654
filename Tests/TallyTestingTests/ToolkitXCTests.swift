import Foundation
import Tally
import TallyTestSupport
import TallyTesting
import XCTest

/// The toolkit in XCTest: passing expectations stay quiet, failing ones reach XCTest once, at the
/// expectation's line, with the message.
final class ToolkitXCTests: FailureCapturingTestCase {
    func testPassingExpectationsRecordNothing() {
        let spy = AnalyticsSpy()
        spy.track("login_tapped", ["action": "tap"])
        let recorded = failures {
            spy.expectTracked(Event("login_tapped", ["action": "tap"]))
            spy.expectCount(1, of: .named("login_tapped"))
            spy.expectNotTracked(.named("sign_up_tapped"))
            spy.expectNothingElse()
        }
        XCTAssertTrue(recorded.isEmpty, "\(recorded)")
    }

    func testAFailingExpectationIsRecordedOnceAtItsLineWithADiff() {
        let spy = AnalyticsSpy()
        spy.track("login_tapped", ["action": "tap"])
        let line = #line + 2
        let recorded = failures {
            spy.expectTracked(Event("login_tapped", ["action": "swipe"]))
        }
        XCTAssertEqual(recorded.count, 1)
        XCTAssertEqual(recorded.first?.line, line)
        XCTAssertEqual(recorded.first.map { URL(fileURLWithPath: $0.file).lastPathComponent }, "ToolkitXCTests.swift")
        let message = recorded.first?.message ?? ""
        XCTAssertTrue(
            message.contains(#"Expected track login_tapped {"action":"swipe"} to have been tracked"#), message)
        XCTAssertTrue(message.contains(#"-     "action": "swipe""#), message)
        XCTAssertTrue(message.contains(#"+     "action": "tap""#), message)
    }

    func testIdentifyGroupAndAliasArePrintedByWhatTheyCarry() {
        let spy = AnalyticsSpy()
        spy.identify(userId: "user-42")
        spy.group("acme")
        spy.alias("user-43")
        let recorded = failures { spy.expectNotTracked(.kind(.group)) }
        XCTAssertEqual(recorded.count, 1)
        let message = recorded.first?.message ?? ""
        XCTAssertTrue(message.contains("[1] group acme"), message)
        XCTAssertFalse(message.contains("groupId="), message)
    }

    func testAnEventOfAPurposeThatMustNotBeThereIsRecordedAtItsLine() {
        let spy = AnalyticsSpy()
        spy.track(Event("ad_clicked").needing(.advertising))
        let line = #line + 1
        let recorded = failures { spy.expectNotTracked(.purpose(.advertising)) }
        XCTAssertEqual(recorded.count, 1)
        XCTAssertEqual(recorded.first?.line, line)
        let message = recorded.first?.message ?? ""
        XCTAssertTrue(
            message.contains("Expected any event for advertising not to have been tracked, but 1 matching event was."),
            message)
        XCTAssertTrue(message.contains("[0] track ad_clicked (for advertising)"), message)
    }

    func testAnEventSentWithoutConsentIsRecordedAtItsLineWithTheAnswer() {
        let memory = InMemoryDestination()
        memory.log.append(
            Envelope(
                event: Event("ad_clicked").needing(.advertising), messageId: MessageID(prefix: 1, sequence: 1),
                timestamp: Date(timeIntervalSince1970: 0), anonymousId: "a", consent: .denied))
        let line = #line + 1
        let recorded = failures { memory.expectNotTracked(.sentWithoutConsent) }
        XCTAssertEqual(recorded.count, 1)
        XCTAssertEqual(recorded.first?.line, line)
        let message = recorded.first?.message ?? ""
        XCTAssertTrue(
            message.contains(
                "Expected any event sent without consent for its purpose not to have been tracked, but 1 matching event was."
            ), message)
        XCTAssertTrue(
            message.contains("[0] track ad_clicked (for advertising), delivered with consent denied"), message)
    }

    func testAConsentMatcherNamingNoPurposeIsRecordedAtItsLineInsteadOfPassing() {
        let memory = InMemoryDestination()
        memory.log.append(
            Envelope(
                event: Event("opened"), messageId: MessageID(prefix: 1, sequence: 1),
                timestamp: Date(timeIntervalSince1970: 0), anonymousId: "a", consent: .notAsked))
        let required: Set<ConsentPurpose> = []  // the consentRequired of a plan with no `consent:`
        var held = true
        let line = #line + 1
        let recorded = failures { held = memory.expectNotTracked(.sentWithoutConsent(for: required)) }
        XCTAssertFalse(held)
        XCTAssertEqual(recorded.count, 1)
        XCTAssertEqual(recorded.first?.line, line)
        let message = recorded.first?.message ?? ""
        XCTAssertTrue(
            message.contains("sentWithoutConsent(for:) names no purpose: it matches nothing"), message)
        XCTAssertTrue(message.contains("give it the purposes that need consent"), message)
    }

    func testAFailureOnADeepValueIsRecordedOnceWithTheValueAsJSON() {
        var deep: PropertyValue = 1
        for _ in 0..<1000 { deep = .array([deep]) }
        let spy = AnalyticsSpy()
        spy.track("deep", ["p": deep, "q": 2])
        let line = #line + 2
        let recorded = failures {
            spy.expectTracked(Event("deep", ["p": deep, "q": 1]))
        }
        XCTAssertEqual(recorded.map(\.line), [line])
        let message = recorded.first?.message ?? ""
        XCTAssertTrue(message.contains(#"{"p":[[[[["#), message)
        XCTAssertTrue(message.contains("null]]]]"), message)
        XCTAssertTrue(message.contains(#"-     "q": 1"#), message)
    }

    func testNothingElseAndCountsFailInXCTestToo() {
        let spy = AnalyticsSpy()
        spy.screen("Login")
        spy.screen("Login")
        let line = #line + 2
        let recorded = failures {
            spy.expectCount(1, of: .kind(.screen))
            spy.expectNothingElse()
        }
        XCTAssertEqual(recorded.map(\.line), [line, line + 1])
        XCTAssertTrue(
            recorded.first?.message.contains("Expected 1 event matching any screen event, but 2 were recorded.") == true
        )
        XCTAssertTrue(recorded.last?.message.contains("2 events were not accounted for") == true)
    }

    func testScopedExpectationsWorkInXCTest() {
        let spy = AnalyticsSpy()
        spy.track("before")
        XCTAssertTrue(failures { spy.expectTracked(Event("during"), when: { spy.track("during") }) }.isEmpty)
        XCTAssertEqual(failures { spy.expectTracked(Event("before"), when: {}) }.count, 1)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func testWaitingReturnsWhenTheEventArrives() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(destinations: [memory])
        analytics.track("arrived")
        let event = await memory.waitForEvent(.named("arrived"), timeout: .seconds(30))
        XCTAssertEqual(event, Event("arrived"))
    }
}
