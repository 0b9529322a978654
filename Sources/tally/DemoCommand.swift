import ArgumentParser
import Tally

/// `tally demo`: tracks a small scenario through the real client and shows what each destination got.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Track a small scenario through the real client and print what each destination received."
    )

    func run() async throws {
        let memory = InMemoryDestination()
        let analytics = Analytics(processors: [.superProperties(["app_version": "1.0.0"])], destinations: [memory, .console])
        analytics.screen("Login")
        analytics.track("login_tapped", ["action": "tap"])
        await analytics.shutdown()
        print("memory received \(memory.count) events")
    }
}
