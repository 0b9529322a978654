// Starts processes: `Process` exists on macOS and Linux only (iOS, tvOS and watchOS have none).
#if os(macOS) || os(Linux)

import Foundation
import TallyTestSupport
import Testing

/// A tool whose standard error cannot be written to ends with its own exit code, not an abort: Foundation's
/// `FileHandle.write(_:)` stops the process there (an Objective-C exception on Darwin, a fatal error here).
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full (Linux)"))
struct StandardErrorTests {
    @Test func thePlanGeneratorExitsWithItsUsageCodeWhenStandardErrorIsFull() throws {
        let tool = try BuiltProducts.require(
            "tally-plan-generator", build: "swift build --product tally-plan-generator")
        let process = Process()
        process.executableURL = tool
        process.arguments = []  // a usage error, written to standard error
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 64)
    }
}

#endif
