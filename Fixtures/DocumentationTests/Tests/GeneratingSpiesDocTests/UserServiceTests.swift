// Generating spies with @Spy: "What @Spy generates" (the protocol), "A worked example", "Stubs and
// defaults".

import Foundation
import TallySpy
import Testing

@Spy
protocol UserService: Sendable {
    func fetch(id: Int) async throws -> User
    func log(_ message: String)
    var title: String { get set }
    static func configure(key: String)
}

@Test func loadingShowsTheUserAndLogsIt() async throws {
    let users = UserServiceSpy()
    users.stub(.fetch, returning: User(id: 1, name: "Ada"))

    let model = ProfileModel(users: users)
    try await model.load(id: 1)

    #expect(model.name == "Ada")
    users.expectCalls(inOrder: [.fetch(id: 1), .log("loaded 1")])
    users.expectNothingElse()
}

@Test func aFailedLoadIsLogged() async {
    let users = UserServiceSpy()
    users.stub(.fetch, throwing: URLError(.notConnectedToInternet))
    await #expect(throws: URLError.self) { try await ProfileModel(users: users).load(id: 1) }
    users.expectCalled(.log)  // any message
    users.expectNotCalled(.log("loaded 1"))
}

@Test func stubsAnswerByArguments() async throws {
    let users = UserServiceSpy()
    let forms = FormServiceSpy()
    users.stub(.fetch, returning: User(id: 1, name: "Ada"))  // every call
    users.stub(.fetch(id: 2), returning: User(id: 2, name: "Bo"))  // only this one
    users.stub(.fetch, throwing: StoreError.notFound)
    users.stub(.fetch) { (id: Int) in User(id: id, name: "User \(id)") }
    forms.stub(.load) { (id: String, completion: @escaping (Form) -> Void) in completion(Form(id: id)) }

    // The newest stub for the call's arguments, else the newest for any arguments.
    #expect(try await users.fetch(id: 2) == User(id: 2, name: "Bo"))
    #expect(try await users.fetch(id: 3) == User(id: 3, name: "User 3"))
    let received = Received()
    forms.load("7") { received.form = $0 }
    #expect(received.form == Form(id: "7"))
}
