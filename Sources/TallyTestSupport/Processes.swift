#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation

/// An executable of this package built next to the test bundle (`.build/debug/NAME`), or nil when it is not
/// built.
package func builtExecutable(_ name: String) -> URL? {
    var candidates: [URL] = []
    if let executable = Bundle.main.executableURL {
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent(name))
    }
    // On macOS the test bundle is a directory inside the products directory.
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// Runs `executable` with `arguments` and waits for it, returning its exit status and standard output.
package func runToEnd(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// A tmpfs of a few bytes mounted on a fresh folder for one test, to make writes fail with ENOSPC; unmounted
/// (and the folder removed) when released. Needs Linux and the right to mount (root in CI).
package final class SmallFileSystem: Sendable {
    package let url: URL

    /// Whether this process may mount a tmpfs: Linux, as root.
    package static var isAvailable: Bool {
        #if os(Linux)
        return geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount")
        #else
        return false
        #endif
    }

    /// Mounts a tmpfs of `bytes` bytes.
    package init(bytes: Int) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tally-tmpfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        let (status, _) = try runToEnd(
            URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=\(bytes)", "tally-test", url.path])
        guard status == 0 else {
            try? FileManager.default.removeItem(at: url)
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    deinit {
        _ = try? runToEnd(URL(fileURLWithPath: "/bin/umount"), [url.path])
        try? FileManager.default.removeItem(at: url)
    }

    package func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}
