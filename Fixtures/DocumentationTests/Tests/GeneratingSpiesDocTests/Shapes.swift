// Generating spies with @Spy: "Answers in turn and argument matchers", "inout, Self and noncopyable
// parameters".

import Foundation
import Tally
import TallySpy
import Testing

@Test func answersInTurnAndArgumentMatchers() async throws {
    let users = UserServiceSpy()
    users.stub(.fetch, returning: User(id: 1, name: "Ada"), then: [User(id: 2, name: "Bo")])
    #expect(try await users.fetch(id: 7).name == "Ada")
    #expect(try await users.fetch(id: 8).name == "Bo")
    #expect(try await users.fetch(id: 9).name == "Bo")  // the last answer repeats
    users.expectCalled(.fetch) { call in call.arguments[0].value?.intValue ?? 0 > 8 }
    users.expectCount(3, of: .fetch)
}

struct Ticket: ~Copyable {
    let id: Int
}

@Spy
protocol TextFormatter {
    func normalize(_ text: inout String)
    func copy() -> Self
    func redeem(_ ticket: consuming Ticket)
}

@Test func inoutSelfAndNoncopyableParameters() throws {
    let formatter = TextFormatterSpy()
    formatter.stub(.normalize) { (text: SpyInout<String>) in
        text.value = text.value.lowercased()
    }
    var text = "Hello"
    formatter.normalize(&text)
    #expect(text == "hello")
    formatter.expectCalled(.normalize("Hello"))  // the value passed in
    let call = try #require(formatter.calls(to: .normalize).first)
    #expect(call.written == [0: "hello"])  // the value written back
    print(call)  // normalize("Hello" -> "hello")

    formatter.stub(.copy, returning: formatter)
    #expect(formatter.copy() === formatter)
    formatter.redeem(Ticket(id: 1))
    formatter.expectCalled(.redeem(Ticket(id: 1)))  // recorded as <noncopyable Ticket>
}
