// Testing your analytics: "Process tests with a recording".

import Foundation
import Tally
import TallyTesting
import Testing

/// The app's start, as the article writes it.
func appDestinations() throws -> [any Destination] {
    var destinations: [any Destination] = [ConsoleDestination()]
    if let recording = try RecordingDestination.fromEnvironment() { destinations.append(recording) }
    return destinations
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
@Test func theLoginScreenTracksItsTap() async throws {
    let folder = try TemporaryFolder()
    let file = folder.url.appendingPathComponent("app.jsonl")
    let app = try LaunchedApp(environment: ["TALLY_RECORD": file.path])

    let recording = RecordingReader(url: file)
    await recording.waitForCount(1)
    recording.expectCount(1)  // verify(count: 1)
    recording.expectCount(1, of: .kind(.screen))  // verify(type: .screen, occurs: 1)
    recording.expectCount(1, of: .named("Login"))  // verify(id: "Login", occurs: 1)

    try app.tap("login")
    await recording.waitForCount(2)
    recording.expectCount(1, of: .named("login", containing: ["action": "tap"]))  // verify(idAndData:)

    await app.quit()
}
