import NotesExample
import Tally
import TallyTesting
import Testing

/// The screens send the right events through `AnalyticsService`: the unit tests of the article's earlier
/// episodes, with a spy service.
@Suite(.exhaustive)
struct NotesListViewModelExampleTests {
    @Test func appearingSendsTheNotesScreen() {
        let service = AnalyticsServiceSpy()
        NotesListViewModel(analyticsService: service).onAppear()

        service.events.expectTracked(.screen("Notes"))
    }

    @Test func creatingANoteSendsItsWordCount() {
        let service = AnalyticsServiceSpy()
        let list = NotesListViewModel(analyticsService: service)

        list.createNote(text: "Buy milk and bread")

        service.events.expectTracked(Event("note_created", ["word_count": 4]))
        #expect(list.notes == [Note(text: "Buy milk and bread")])
    }

    @Test func aBlankNoteIsNotCreatedAndSendsNothing() {
        let service = AnalyticsServiceSpy()
        let list = NotesListViewModel(analyticsService: service)

        list.createNote(text: "  \n ")

        service.events.expectNoEvents()
        #expect(list.notes.isEmpty)
    }

    @Test func searchingSendsTheTermAsTypedAndHowManyNotesMatched() {
        let service = AnalyticsServiceSpy()
        let list = NotesListViewModel(analyticsService: service)
        list.createNote(text: "Buy milk")
        list.createNote(text: "Call Ada")

        #expect(list.search("MILK") == [Note(text: "Buy milk")])

        service.events.expectCount(2, of: .named("note_created"))
        service.events.expectTracked(.searched(term: "MILK", resultCount: 1))
    }

    @Test func aBlankSearchFindsEveryNoteAndSendsNothing() {
        let service = AnalyticsServiceSpy()
        let list = NotesListViewModel(analyticsService: service)

        service.events.expectNotTracked(.named("search"), when: { #expect(list.search("  ").isEmpty) })
        service.events.expectNoEvents()
    }

    @Test func everythingTheListSendsIsInTheTrackingPlan() throws {
        let service = AnalyticsServiceSpy()
        let list = NotesListViewModel(analyticsService: service)
        list.onAppear()
        list.createNote(text: "One")
        list.createNote(text: "Two words")
        list.search("one")

        service.events.expectCount(4)
        service.events.expectValid(against: try ExamplesPlan.validator())
    }
}
