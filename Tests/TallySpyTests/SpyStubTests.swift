#if SpyMacro
import Foundation
@testable import TallySpy
import Testing

/// What a spy's members answer: stubs, stored values, defaults, and the issues a stub that doesn't fit
/// reports at the line that set it.
@Suite struct SpyStubTests {
    @Test func aStubForTheseArgumentsWinsOverAStubForAny() {
        let users = UserServiceSpy()
        users.stub(.find, returning: User(id: 0, name: "anyone"))
        users.stub(.find(name: "Ada"), returning: User(id: 1, name: "Ada"))
        users.stub(.find, returning: User(id: 9, name: "newest"))
        #expect(users.find(name: "Ada") == User(id: 1, name: "Ada"))
        #expect(users.find(name: "Grace") == User(id: 9, name: "newest"))
    }

    @Test func aStubCanReturnNilForAnOptional() {
        let users = UserServiceSpy()
        users.stub(.find, returning: nil)
        #expect(users.find(name: "Ada") == nil)
    }

    @Test func aClosureAnswersFromTheArguments() async throws {
        let users = UserServiceSpy()
        users.stub(.fetch) { (id: Int) in User(id: id, name: "User \(id)") }
        #expect(try await users.fetch(id: 4) == User(id: 4, name: "User 4"))
        users.stub(.fetch) { (id: Int) async throws in
            guard id > 0 else { throw StoreError(code: id) }
            return User(id: id, name: "async")
        }
        #expect(try await users.fetch(id: 5) == User(id: 5, name: "async"))
        await #expect(throws: StoreError(code: 0)) { try await users.fetch(id: 0) }
    }

    @Test func aThrowingStubThrowsFromAThrowingMember() async {
        let users = UserServiceSpy()
        users.stub(.fetch, throwing: StoreError(code: 404))
        await #expect(throws: StoreError(code: 404)) { try await users.fetch(id: 1) }
        users.stub(.current, throwing: StoreError(code: 500))
        #expect(throws: StoreError(code: 500)) { try users.current() }
    }

    @Test func anEffectfulGetterAnswersToo() async throws {
        let users = UserServiceSpy()
        users.stub(.profile, returning: User(id: 3, name: "Linus"))
        #expect(try await users.profile == User(id: 3, name: "Linus"))
    }

    @Test func aSetterStoresWhatTheGetterReturnsUntilAStubSaysOtherwise() {
        let users = UserServiceSpy()
        users.title = "First"
        #expect(users.title == "First")
        users[2] = "two"
        #expect(users[2] == "two")
        users.stub(.title, returning: "Stubbed")
        #expect(users.title == "Stubbed")
    }

    @Test func removingStubsBringsBackTheDefault() {
        let users = UserServiceSpy(mode: .relaxed)
        users.stub(.count, returning: 5)
        #expect(users.count() == 5)
        users.removeStubs(for: .count)
        #expect(users.count() == 0)
        users.stub(.count, returning: 6)
        users.removeStubs()
        #expect(users.count() == 0)
    }

    @Test func relaxedSpiesReturnDefaultsQuietly() {
        let users = UserServiceSpy(mode: .relaxed)
        #expect(users.count() == 0)
        #expect(users.find(name: "x") == nil)
        #expect(users.isReady == false)
        #expect(users.title == "")
    }

    @Test func aTypeOfYoursGetsADefaultBySpyDefaultValue() {
        let users = UserServiceSpy(mode: .relaxed)
        #expect(users.make() == Avatar.spyDefaultValue)
    }

    @Test func anUnstubbedThrowingMemberWithoutADefaultThrowsSpyError() async {
        let users = UserServiceSpy(mode: .relaxed)
        await #expect(throws: SpyError.self) { try await users.fetch(id: 1) }
        do {
            _ = try await users.fetch(id: 1)
        } catch let error as SpyError {
            #expect(error.description == "Unstubbed call to fetch(id: 1): User has no default value.")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func anUnstubbedCallIsReportedAtTheLineThatCreatedTheSpy() {
        let line = #line + 1
        let users = UserServiceSpy()
        withKnownIssue {
            _ = users.count()
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.description.contains(
                    """
                    Unstubbed call to count(), which returns Int: returned the default, 0.

                    Call: count()

                    Stub it before the code under test calls it:
                      spy.stub(.count, returning: <Int>)
                    """)
        }
    }

    @Test func anUnstubbedThrowingCallWithoutADefaultSaysItThrew() async {
        let users = UserServiceSpy()
        await withKnownIssue {
            _ = try? await users.fetch(id: 1)
        } matching: { issue in
            issue.description.contains(
                "Unstubbed call to fetch(id:), which returns User: threw SpyError, since User has no default")
                && issue.description.contains("To give User a default, conform it to SpyDefaultValue.")
        }
    }

    @Test func aStubOfTheWrongTypeIsReportedAtItsLine() {
        let users = UserServiceSpy()
        let line = #line + 1
        users.stub(.count, returning: "three")
        withKnownIssue {
            #expect(users.count() == 0)
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.description.contains("The stub for count() answered String, but count() returns Int")
        }
    }

    @Test func aClosureWhoseParametersDontFitIsReportedAtItsLine() {
        let users = UserServiceSpy()
        let line = #line + 1
        users.stub(.find) { (id: Int) in User(id: id, name: "") }
        withKnownIssue {
            #expect(users.find(name: "Ada") == nil)
        } matching: { issue in
            issue.sourceLocation?.line == line
                && issue.description.contains(
                    "The stub for find(name:) with any arguments takes (Int), but find(name:) was called with (String)")
        }
    }

    @Test func anErrorStubOnAMemberThatCannotThrowIsReported() {
        let users = UserServiceSpy()
        users.stub(.count, throwing: StoreError(code: 1))
        withKnownIssue {
            #expect(users.count() == 0)
        } matching: { issue in
            issue.description.contains("The stub for count() threw StoreError(code: 1), but count() cannot throw here")
        }
    }

    @Test func anAsyncStubOnASynchronousMemberIsReported() {
        let users = UserServiceSpy()
        users.stub(.count) { () async in 1 }
        withKnownIssue {
            #expect(users.count() == 0)
        } matching: { issue in
            issue.description.contains("The stub for count() is async, but count() is synchronous")
        }
    }

    @Test func aStubThatThrowsTheWrongTypedErrorIsReported() {
        let database = DatabaseSpy()
        database.stub(.validate, throwing: CancellationError())
        withKnownIssue {
            #expect((try? database.validate("x")) == false)
        } matching: { issue in
            issue.description.contains("validate(_:) throws only StoreError")
        }
    }

    @Test func theMessageForATypeWithoutADefaultNamesTheCallAndTheWayOut() {
        let message = SpyState.noDefaultMessage(
            nil, spy: "UserServiceSpy", pattern: "make", returnType: Profile.self)
        #expect(
            message
                == "UserServiceSpy: unstubbed call to make, which returns Profile: Profile has no default value and the "
                + "member cannot throw. Stub it (spy.stub(.make, returning: ...)) or conform Profile to SpyDefaultValue."
        )
    }

    @Test func typeNamesAreWrittenAsSwiftWritesThem() {
        #expect(SpyState.typeName([User].self) == "[User]")
        #expect(SpyState.typeName(User?.self) == "User?")
        #expect(SpyState.typeName([String: [Int]].self) == "[String: [Int]]")
        #expect(SpyState.typeName((() -> Void)?.self) == "(() -> ())?")
    }

    @Test func defaultsAreTheEmptyLiterals() {
        #expect(SpyDefaults.value(Int.self) == 0)
        #expect(SpyDefaults.value(Double.self) == 0)
        #expect(SpyDefaults.value(Bool.self) == false)
        #expect(SpyDefaults.value(String.self) == "")
        #expect(SpyDefaults.value([Int].self) == [])
        #expect(SpyDefaults.value(Set<Int>.self) == [])
        #expect(SpyDefaults.value([String: Int].self) == [:])
        #expect(SpyDefaults.value(Int?.self) == .some(nil))
        #expect(SpyDefaults.value(Avatar.self) == Avatar.spyDefaultValue)
        #expect(SpyDefaults.value(User.self) == nil)
        #expect(SpyDefaults.value(Profile.self) == nil)
    }
}

/// A type without a default.
struct Profile: Equatable {}

extension Avatar: SpyDefaultValue {
    static var spyDefaultValue: Avatar { Avatar(url: "default.png") }
}
#endif
