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
}
