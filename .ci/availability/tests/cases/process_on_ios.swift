// Process exists on macOS only: iOS, tvOS, watchOS and visionOS have no Process.
import Foundation

func run() throws {
    let process = Process() // expect: Foundation.Process
    try process.run() // expect: Foundation.Process
}

#if os(Linux) || os(macOS)
func runOnMac() throws {
    let process = Process()
    try process.run()
}
#endif
