// swift-format-ignore: OrderedImports
// The C library before Foundation, as in SmallStack.swift.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation

/// Where the products of this package (`tally`, the test fixtures' executables) are built, for the tests that
/// run them.
///
/// `Bundle.main` alone does not say: under `swift test` on Linux it is the test executable, in the products
/// folder, but on macOS it is the `xctest` runner inside Xcode, and the products folder is the one that holds
/// the test *bundle* (`.build/arm64-apple-macosx/debug/TallyPackageTests.xctest`). So the places looked in are,
/// in order: the folder of the main executable, the folder holding each loaded `.xctest` bundle, and the
/// package's own `.build/debug` (found from this file's path).
package enum BuiltProducts {
    /// The folders looked in, in order.
    package static func folders() -> [URL] {
        // This file's own path (not a caller's, as a default argument would be).
        let filePath = #filePath
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        // Sources/TallyTestSupport/Processes.swift: three folders up is the package.
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        folders.append(root.appendingPathComponent(".build/debug"))
        var seen: Set<String> = []
        return folders.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// The built executable `name`, or nil when none of ``folders()`` holds it.
    ///
    /// - Parameter environmentVariable: a variable that may name the executable's path, looked at first.
    package static func executable(_ name: String, environmentVariable: String? = nil) -> URL? {
        candidates(name, environmentVariable: environmentVariable).first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }

    /// The built executable `name`; throws ``MissingProduct``, which says what to build, when it is not built.
    /// A test that needs the product calls this in its body, so that a missing product fails the test
    /// instead of skipping it without a word.
    package static func require(_ name: String, build: String, environmentVariable: String? = nil)
        throws(MissingProduct) -> URL
    {
        guard let url = executable(name, environmentVariable: environmentVariable) else {
            throw MissingProduct(
                name: name, build: build,
                searched: candidates(name, environmentVariable: environmentVariable).map(\.path))
        }
        return url
    }

    private static func candidates(_ name: String, environmentVariable: String?) -> [URL] {
        var candidates: [URL] = []
        if let environmentVariable, let path = ProcessInfo.processInfo.environment[environmentVariable], !path.isEmpty {
            candidates.append(URL(fileURLWithPath: path))
        }
        return candidates + folders().map { $0.appendingPathComponent(name) }
    }
}

/// A product a test needs is not built: the message says which, where it was looked for, and what to run.
package struct MissingProduct: Error, CustomStringConvertible {
    package var name: String
    package var build: String
    package var searched: [String]

    package init(name: String, build: String, searched: [String]) {
        self.name = name
        self.build = build
        self.searched = searched
    }

    package var description: String {
        "\(name) is not built; run `\(build)` first (looked for it at \(searched.joined(separator: ", ")))"
    }
}

/// An executable of this package built next to the test bundle (`.build/debug/NAME`), or nil when it is not
/// built. See ``BuiltProducts``.
package func builtExecutable(_ name: String) -> URL? {
    BuiltProducts.executable(name)
}

#if os(macOS) || os(Linux)
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
#else
/// Starting a process needs `Process`, which iOS, tvOS and watchOS lack: this always throws there, and the
/// tests that start processes run on macOS and Linux.
package func runToEnd(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
    throw CocoaError(.featureUnsupported, userInfo: [NSFilePathErrorKey: executable.path])
}
#endif

/// A tmpfs of a few bytes mounted on a fresh folder for one test, to make writes fail with ENOSPC; unmounted
/// (and the folder removed) when released. Needs Linux and the right to mount (root in CI).
///
/// A test process that is killed never releases its tmpfs, so each folder's name holds the id of the process
/// that mounted it (`tally-tmpfs-<pid>-<uuid>`), and every new one first unmounts and removes those whose
/// process is gone (``removeLeftovers()``).
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
        Self.removeLeftovers()
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(Self.prefix)\(getpid())-\(UUID().uuidString)")
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

    static let prefix = "tally-tmpfs-"

    /// Unmounts and removes the folders of tmpfs mounts left by test processes that are gone (killed before
    /// they released them), and those of the older unnamed form (`tally-tmpfs-<uuid>`). Returns their paths.
    @discardableResult
    package static func removeLeftovers() -> [String] {
        #if os(Linux)
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return [] }
        let folder = FileManager.default.temporaryDirectory.path
        var removed: [String] = []
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 2, fields[0] == "tally-test" else { continue }
            let path = String(fields[1])
            let name = (path as NSString).lastPathComponent
            guard (path as NSString).deletingLastPathComponent == folder, name.hasPrefix(prefix) else { continue }
            let rest = name.dropFirst(prefix.count)
            if let owner = rest.split(separator: "-").first.flatMap({ Int32($0) }), owner > 0,
                kill(owner, 0) == 0 || errno != ESRCH
            {
                continue  // its process is still running
            }
            _ = try? runToEnd(URL(fileURLWithPath: "/bin/umount"), [path])
            try? FileManager.default.removeItem(atPath: path)
            removed.append(path)
        }
        return removed
        #else
        return []
        #endif
    }
}
