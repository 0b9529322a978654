import Tally
import Foundation

let memory = InMemoryDestination()
let analytics = Analytics(processors: [.superProperties(["v": 1])], destinations: [memory, .console])
analytics.track("hello", ["a": 1.0, "b": .double(.nan)])
analytics.identify(userId: "u1", traits: ["plan": "pro"])
analytics.screen("Login")
await analytics.flush()
print(memory.count, analytics.diagnostics)
