import Foundation
import NotesExample
import Tally
import TallyPlan
import TallySpy
import TallyTesting
import Testing

/// The Notes app also sends every event to Firebase, through Tally's `FirebaseDestination`. These tests run
/// the app's real client, with a spy in Firebase's place and an in-memory destination beside it: what
/// Firebase receives is what the plan says, except where Firebase's limits cut it, and then the client
/// reports the cut.
@Suite(.exhaustive)
struct FirebaseExampleTests {
    let google = GoogleSDKSpy()
    let firebase = FirebaseSDKSpy()
    let memory = InMemoryDestination()

    func makeApp() -> NotesApp {
        let firebase = firebase
        let google = google
        return NotesApp(
            makeAdapter: { google }, makeFirebase: { FirebaseDestination(adapter: firebase) },
            destinations: [memory])
    }

    @Test func theNotesFlowReachesFirebaseAsPlanned() async {
        let app = makeApp()
        let list = app.makeNotesList()

        list.onAppear()
        list.createNote(text: "Buy milk and bread")
        list.search("milk")
        await app.flush()

        firebase.expectCalls(inOrder: [
            .logEvent("screen_view", parameters: ["screen_name": "Notes"]),
            .logEvent("note_created", parameters: ["word_count": 4]),
            .logEvent("search", parameters: ["search_term": "milk", "result_count": 1]),
        ])
        memory.expectEvents([.notesScreen, .noteCreated(wordCount: 4), .searched(term: "milk", resultCount: 1)])
        google.expectCount(3, of: .trackEvent)
        #expect(
            app.statistics.recentProblems.isEmpty,
            "Firebase's rules changed an event: \(app.statistics.recentProblems)")
    }

    @Test func aLongSearchTermIsCutToFirebasesLimitAndTheCutIsReported() async {
        let app = makeApp()
        let term = String(repeating: "milk and bread ", count: 10)  // 150 characters
        let list = app.makeNotesList()

        list.search(term)
        await app.flush()

        let kept = String(term.prefix(100))
        firebase.expectCalled(.logEvent("search", parameters: ["search_term": kept, "result_count": 0]))
        memory.expectTracked(.searched(term: term, resultCount: 0))  // every other destination gets it all
        google.expectCalled(.trackEvent(with: "search", properties: ["search_term": term, "result_count": 0]))
        let problems = app.statistics.recentProblems
        #expect(problems.map(\.code) == [.vendorLimit])
        #expect(problems.first?.destination == "firebase")
        #expect(problems.first?.path == "/properties/search_term")
        #expect(problems.first?.message.hasPrefix("Firebase") == true)
    }

    /// Firebase renames what breaks its name rules (`note-created` becomes `note_created`, a name over 40
    /// characters is cut, `first_open` is Firebase's own) and reports it. Every event the plan declares must
    /// reach Firebase under its own name, with its own parameter and user property names, so that reports in
    /// Firebase and in every other tool agree.
    @Test func everyPlannedEventReachesFirebaseUnderItsOwnNames() async throws {
        let plan = try ExamplesPlan.plan()
        let problems = ProblemLog()
        let analytics = AnalyticsClient(
            destinations: [FirebaseDestination(adapter: firebase)],
            configuration: AnalyticsClient.Configuration(onProblem: problems.append))
        let tracked = plan.events.filter { $0.kind == .track }
        let identified = plan.events.filter { $0.kind == .identify }
        for event in tracked {
            analytics.track(Event(event.name, Self.sample(of: event)))
        }
        for event in identified {
            analytics.track(.identify(userId: "user-42", traits: Self.sample(of: event)))
        }
        await analytics.flush()

        let logged = firebase.calls(to: .logEvent)
        for event in tracked {
            let sent = logged.first { $0.arguments.first == .value(.string(event.name)) }
            #expect(sent != nil, "\(event.name) did not reach Firebase under its own name: \(logged)")
            let names = sent?.arguments.last?.value?.objectValue?.keys.sorted() ?? []
            #expect(
                names == event.properties.keys.map(\.string).sorted(),
                "\(event.name)'s parameters reached Firebase as \(names)")
        }
        let userProperties = firebase.calls(to: .setUserProperty).compactMap { $0.arguments.last?.value?.stringValue }
        #expect(Set(userProperties) == Set(identified.flatMap { $0.properties.keys.map(\.string) }))
        firebase.expectCount(tracked.count, of: .logEvent)
        firebase.expectCount(identified.count, of: .setUserID)
        firebase.expectCount(userProperties.count, of: .setUserProperty)
        #expect(problems.all.isEmpty, "\(problems.all)")
        await analytics.shutdown()
    }

    /// A value for each property the plan gives `event`, under the plan's name for it.
    private static func sample(of event: PlannedEvent) -> [String: PropertyValue] {
        Dictionary(uniqueKeysWithValues: event.properties.keys.map { ($0.string, "x") })
    }
}

/// Problems a client reported, from its delivery thread.
final class ProblemLog: @unchecked Sendable {
    // @unchecked: `problems` is only touched while `lock` is held.
    private let lock = NSLock()
    private var problems: [Problem] = []

    @Sendable func append(_ problem: Problem) { lock.withLock { problems.append(problem) } }
    var all: [Problem] { lock.withLock { problems } }
}
