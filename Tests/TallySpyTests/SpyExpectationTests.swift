#if SpyMacro
import Foundation
import Tally
import TallySpy
import TallyTesting
import Testing

/// The typed expectations: they pass, and they fail once, at the caller's line, with CallRecorder's
/// messages and diff.
@Suite struct SpyExpectationTests {
    /// A spy that logged "a", then was asked for a user with id 1.
    private func usedSpy() -> UserServiceSpy {
        let users = UserServiceSpy(mode: .relaxed)
        users.log("a")
        _ = users.find(name: "Ada")
        return users
    }

    /// Runs `body`, which must report exactly one issue, at `line` of this file, containing `fragments`.
    /// The matcher only collects: an `#expect` failing inside it would be matched again.
    private func expectIssue(
        atLine line: Int, containing fragments: [String], sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () -> Void
    ) {
        let issues = LockedBox<[(description: String, location: SourceLocation?)]>([])
        withKnownIssue(sourceLocation: sourceLocation) {
            body()
        } matching: { issue in
            issues.set(issues.value + [(issue.description, issue.sourceLocation)])
            return true
        }
        #expect(issues.value.count == 1, sourceLocation: sourceLocation)
        guard let issue = issues.value.first else { return }
        let missing = fragments.filter { !issue.description.contains($0) }
        #expect(missing.isEmpty, "\(missing) not in \(issue.description)", sourceLocation: sourceLocation)
        #expect(issue.location?.line == line, sourceLocation: sourceLocation)
        #expect(issue.location?.fileName == "SpyExpectationTests.swift", sourceLocation: sourceLocation)
    }

    @Test func passingExpectationsReportNothing() {
        let users = usedSpy()
        #expect(users.expectCalled(.log("a")))
        #expect(users.expectCalled(.find))
        #expect(users.expectNotCalled(.count))
        #expect(users.expectNotCalled(.log("b")))
        #expect(users.expectCount(1, of: .log))
        #expect(users.expectCount(2))
        #expect(users.expectCalls(inOrder: [.log, .find(name: "Ada")]))
        #expect(users.expectNothingElse())
    }

    @Test func expectCalledWithAnyArgumentsFails() {
        let users = usedSpy()
        let line = #line + 4
        expectIssue(
            atLine: line, containing: ["Expected a call to count(), but it was never called.", "[0] log(\"a\")"]
        ) {
            users.expectCalled(.count)
        }
    }

    @Test func expectCalledWithArgumentsFailsWithADiff() {
        let users = usedSpy()
        let fragments = [
            "No recorded call matches the expected call:\n  find(name: \"Grace\")",
            "Difference from the closest recorded call, [1] (−expected +recorded):",
            "−   arguments: (name: \"Grace\")", "+   arguments: (name: \"Ada\")",
        ]
        let line = #line + 1
        expectIssue(atLine: line, containing: fragments) { users.expectCalled(.find(name: "Grace")) }
    }

    @Test func aPredicateMatchesWhatAnExactValueCannotSay() {
        let users = usedSpy()
        #expect(users.expectCalled(.find) { $0.arguments[0].value?.stringValue?.hasPrefix("A") == true })
        let turnedDown = [
            "Expected a call to log(_:) that the predicate accepts, but it turned down 1 recorded call to log(_:):",
            "  [0] log(\"a\")",
        ]
        let line = #line + 1
        expectIssue(atLine: line, containing: turnedDown) { users.expectCalled(.log) { $0.arguments == ["b"] } }
        let accounted = ["the 1 call it accepts was accounted for already:\n  [1] find(name: \"Ada\")"]
        let secondLine = #line + 1
        expectIssue(atLine: secondLine, containing: accounted) { users.expectCalled(.find) { _ in true } }
    }

    @Test func expectNotCalledFailsForTheMemberOrForTheseArguments() {
        let users = usedSpy()
        var line = #line + 2
        expectIssue(atLine: line, containing: ["Expected no call to log(_:), but 1 was recorded:\n  [0] log(\"a\")"]) {
            users.expectNotCalled(.log)
        }
        line = #line + 2
        expectIssue(atLine: line, containing: ["Expected no call to log(\"a\"), but 1 was recorded:"]) {
            users.expectNotCalled(.log("a"))
        }
    }

    @Test func expectCountFails() {
        let users = usedSpy()
        var line = #line + 2
        expectIssue(atLine: line, containing: ["Expected 2 calls to log(_:), but 1 was recorded:\n  [0] log(\"a\")"]) {
            users.expectCount(2, of: .log)
        }
        line = #line + 2
        expectIssue(atLine: line, containing: ["Expected 3 calls, but 2 were recorded."]) {
            users.expectCount(3)
        }
        line = #line + 2
        expectIssue(atLine: line, containing: ["Expected 1 call to log(\"b\"), but none was recorded."]) {
            users.expectCount(1, of: .log("b"))
        }
    }

    @Test func expectCallsInOrderFails() {
        let users = usedSpy()
        let fragments = [
            "Expected call 2 of 2 in order, but it was not recorded after [1] find(name: \"Ada\"):",
            "It was recorded before that, as [0] log(\"a\").",
        ]
        let line = #line + 1
        expectIssue(atLine: line, containing: fragments) { users.expectCalls(inOrder: [.find, .log("a")]) }
    }

    @Test func expectNothingElseFailsOnCallsNoExpectationMentioned() {
        let users = usedSpy()
        users.expectCalled(.log)
        let line = #line + 4
        expectIssue(
            atLine: line, containing: ["1 recorded call was not matched by an expectation:\n  [1] find(name: \"Ada\")"]
        ) {
            users.expectNothingElse()
        }
    }

    @Test func readingCallsAndClearing() {
        let users = usedSpy()
        users.log("b")
        #expect(users.calls(to: .log).map(\.description) == ["log(\"a\")", "log(\"b\")"])
        #expect(users.calls(to: .log("b")).count == 1)
        #expect(users.recorder.count == 3)
        users.clear()
        #expect(users.calls.isEmpty)
        users.expectNothingElse()
    }

    @Test func callsDescribeThemselves() {
        #expect(UserServiceSpy.Call.fetch.description == "fetch(id:) with any arguments")
        #expect(UserServiceSpy.Call.fetch(id: 1).description == "fetch(id: 1)")
        #expect(UserServiceSpy.Call.title.description == "title")
        #expect(UserServiceSpy.Call.setTitle("x").description == "setTitle(\"x\")")
        #expect(UserServiceSpy.Call.count.description == "count()")
        #expect(UserServiceSpy.Call.subscript(2).description == "subscript(2)")
        #expect(UserServiceSpy.Call.setSubscript(2, newValue: "x").description == "setSubscript(2, newValue: \"x\")")
    }

    @Test func exhaustiveModeReportsEachSpyByItsTypeAtTheLineThatCreatedIt() {
        let issues = LockedBox<[(description: String, line: Int?)]>([])
        let lines = (first: #line + 3, second: #line + 6)
        withKnownIssue {
            withExhaustiveCheck {
                let users = UserServiceSpy(mode: .relaxed)
                users.log("first")
                // Another spy in the same test: its own line.
                let others = UserServiceSpy(mode: .relaxed)
                others.log("second")
            }
        } matching: { issue in
            issues.set(issues.value + [(issue.description, issue.sourceLocation?.line)])
            return true
        }
        let reports = issues.value.sorted { ($0.line ?? 0) < ($1.line ?? 0) }
        #expect(reports.map(\.line) == [lines.first, lines.second])
        #expect(
            reports.first?.description.contains(
                "1 call recorded by the UserServiceSpy created at TallySpyTests/SpyExpectationTests.swift:\(lines.first)"
            )
                == true, "\(reports)")
        #expect(reports.last?.description.contains(#"log("second")"#) == true, "\(reports)")
        #expect(!reports.contains { $0.description.contains("SpyState.swift") }, "\(reports)")
    }
}
#endif
