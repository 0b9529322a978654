#if SpyMacro
import Foundation
import IssueReportingTestSupport
import TallySpy
import Testing

@Suite struct SpyBasicsTests {
    @Test func recordsAndExpectsTypedCalls() async throws {
        let users = UserServiceSpy()
        users.stub(.fetch, returning: User(id: 1, name: "Ada"))
        let user = try await users.fetch(id: 1)
        #expect(user == User(id: 1, name: "Ada"))
        users.log("loaded")
        users.title = "Profile"
        #expect(users.title == "Profile")
        users.expectCalled(.fetch(id: 1))
        users.expectCalled(.log("loaded"))
        users.expectCalled(.setTitle("Profile"))
        users.expectNothingElse()
        // Reading `title` is not a call (see SpyFacadeTests).
        #expect(users.calls.map(\.description) == ["fetch(id: 1)", "log(\"loaded\")", "setTitle(\"Profile\")"])
    }

    @Test func staticCallsRecordIntoTheInstalledSpy() {
        let users = UserServiceSpy()
        users.withStaticCalls {
            UserServiceSpy.configure(key: "k")
        }
        users.expectCalled(.configure(key: "k"))
    }

    @Test func aFailingExpectationIsReported() {
        let users = UserServiceSpy()
        users.log("a")
        withKnownIssue {
            users.expectCalled(.log("b"))
        } matching: { issue in
            print(issue.description)
            return true
        }
    }

    @Test func unstubbedReturnsReportAndReturnTheDefault() {
        let users = UserServiceSpy()
        withKnownIssue {
            #expect(users.count() == 0)
            #expect(users.find(name: "x") == nil)
        } matching: { issue in
            print(issue.description)
            return true
        }
    }
}
#endif
