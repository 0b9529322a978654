import NotesExample
import Tally
import TallyTesting
import Testing

/// The screens send the right events through `AnalyticsService`: the unit tests of the article's earlier
/// episodes, with a spy service.
struct NotesListViewModelExampleTests {
    @Test func appearingSendsTheNotesScreen() {
        let service = AnalyticsServiceSpy()
        NotesListViewModel(analyticsService: service).onAppear()

        service.events.expectTracked(.screen("Notes"))
        service.events.expectNothingElse()
    }

    @Test func creatingANoteSendsItsWordCount() {
        let service = AnalyticsServiceSpy()
        let list = NotesListViewModel(analyticsService: service)

        list.createNote(text: "Buy milk and bread")

        service.events.expectTracked(Event("note_created", ["word_count": 4]))
        service.events.expectNothingElse()
        #expect(list.notes == [Note(text: "Buy milk and bread")])
    }

    @Test func aBlankNoteIsNotCreatedAndSendsNothing() {
        let service = AnalyticsServiceSpy()
        let list = NotesListViewModel(analyticsService: service)

        list.createNote(text: "  \n ")

        service.events.expectNoEvents()
        #expect(list.notes.isEmpty)
    }

    @Test func everythingTheListSendsIsInTheTrackingPlan() throws {
        let service = AnalyticsServiceSpy()
        let list = NotesListViewModel(analyticsService: service)
        list.onAppear()
        list.createNote(text: "One")
        list.createNote(text: "Two words")

        service.events.expectCount(3)
        service.events.expectValid(against: try ExamplesPlan.validator())
    }
}
