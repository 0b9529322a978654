import Tally

/// The Notes app's events, one static factory each, as in `Examples/tracking-plan.yaml`.
extension Event {
    /// The notes list appeared on screen.
    public static let notesScreen = Event.screen("Notes")

    /// The user created a note.
    ///
    /// - Parameter wordCount: how many words the note has.
    public static func noteCreated(wordCount: Int) -> Event {
        Event("note_created", ["word_count": .int(wordCount)])
    }

    /// The user searched their notes: Firebase's recommended `search` event.
    ///
    /// - Parameters:
    ///   - term: what the user searched for. Firebase keeps its first 100 characters.
    ///   - resultCount: how many notes matched.
    public static func searched(term: String, resultCount: Int) -> Event {
        Event("search", ["search_term": .string(term), "result_count": .int(resultCount)])
    }
}
