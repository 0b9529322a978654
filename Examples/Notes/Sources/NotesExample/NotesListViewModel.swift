import Foundation

/// A note: its text.
public struct Note: Sendable, Hashable {
    /// What the user wrote.
    public var text: String

    /// Creates a note.
    public init(text: String) { self.text = text }

    /// How many words the note has: runs of letters and digits.
    public var wordCount: Int {
        text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" }).count
    }
}

/// The notes list: it shows the notes and creates new ones, and says so to analytics.
///
/// It depends on ``AnalyticsService``, never on the Google SDK: the app resolves the service from its
/// container (``NotesApp``), tests pass a spy.
///
/// ```swift
/// let list = NotesListViewModel(analyticsService: service)
/// list.onAppear()                                   // screen "Notes"
/// list.createNote(text: "Buy milk and bread")       // note_created, word_count 4
/// list.search("milk")                               // search, search_term "milk", result_count 1
/// ```
public final class NotesListViewModel {
    /// The notes, newest last.
    public private(set) var notes: [Note] = []
    private let analyticsService: any AnalyticsService

    /// Creates the list.
    public init(analyticsService: any AnalyticsService) {
        self.analyticsService = analyticsService
    }

    /// The list appeared on screen.
    public func onAppear() {
        analyticsService.send(event: .notesScreen)
    }

    /// Creates a note from `text`. Blank text creates nothing and tracks nothing.
    ///
    /// - Returns: the note, or nil when `text` is blank.
    @discardableResult
    public func createNote(text: String) -> Note? {
        let note = Note(text: text)
        guard note.wordCount > 0 else { return nil }
        notes.append(note)
        analyticsService.send(event: .noteCreated(wordCount: note.wordCount))
        return note
    }

    /// The notes whose text contains `term`, ignoring case. A blank term finds every note and tracks
    /// nothing; any other search is tracked with the term as the user typed it and the number of matches.
    ///
    /// - Returns: the matching notes, oldest first.
    @discardableResult
    public func search(_ term: String) -> [Note] {
        guard !term.allSatisfy(\.isWhitespace) else { return notes }
        let found = notes.filter { $0.text.lowercased().contains(term.lowercased()) }
        analyticsService.send(event: .searched(term: term, resultCount: found.count))
        return found
    }
}
