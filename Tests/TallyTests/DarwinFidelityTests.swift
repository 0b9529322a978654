import Foundation
import Tally
import TallyTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What differs on Apple platforms and a watch's 32-bit `Int`, checked where it can be on Linux.
struct DarwinFidelityTests {
    // MARK: 32-bit Int

    @Test func anExponentOfManyDigitsIsHeldAtTheLimitWithoutOverflowing() throws {
        // 19 nines: held at the limit, which (with the digits added) fits a 32-bit Int as well as a 64-bit one.
        let huge = try #require(BigNumber("1e9999999999999999999"))
        #expect(huge == BigNumber("1e100000001"))
        #expect(BigNumber("-1e-9999999999999999999") == nil)  // reads as -0.0, a double
        #expect(BigNumber("1e99999999") != BigNumber("1e100000000"))
        #expect(try PropertyValue(json: "[1e9999999999999999999]") == [.bigNumber(huge)])
    }

    @Test(arguments: [
        "2147483647", "2147483648", "-2147483649", "9999999999", "1234567890123", "999999999999999999",
        "-99999999999999999", "4294967296",
    ])
    func theReaderKeepsIntegersOfTenToEighteenDigitsExactly(text: String) throws {
        let value = try #require(Int64(text))
        let expected: PropertyValue = Int(exactly: value).map { .int($0) } ?? .bigNumber(BigNumber(exactly: value)!)
        #expect(try PropertyValue(json: text) == expected)
        #expect(try PropertyValue(json: text).jsonString == text)
    }

    @Test func theReaderKeepsFifteenDigitDecimalsExactly() throws {
        #expect(try PropertyValue(json: "123456789.012345") == .double(123456789.012345))
        #expect(try PropertyValue(json: "-99999999999999.9") == .double(-99999999999999.9))
    }

    // MARK: Darwin edges

    @Test func theLibraryContextReportsTheOperatingSystemVersionAsNumbers() throws {
        let os = try #require(ContextProcessor.library.values["os"]?.objectValue)
        let version = try #require(os["version"]?.stringValue)
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(version)")
        let expected = ProcessInfo.processInfo.operatingSystemVersion
        #expect(version == "\(expected.majorVersion).\(expected.minorVersion).\(expected.patchVersion)")
    }

    @Test(arguments: [Buffering.OverflowPolicy.block, .dropNewest])
    func theWorkersATrackMayWaitOnRunAtUserInitiated(policy: Buffering.OverflowPolicy) async throws {
        let probe = QualityOfServiceProbe()
        let analytics = AnalyticsClient(
            processors: [probe], destinations: [probe],
            configuration: .init(buffering: Buffering(whenFull: policy)))
        analytics.track("e")
        _ = await analytics.flush()
        let expected: QualityOfService = policy == .block ? .userInitiated : .default
        #expect(probe.seen == ["processor": expected, "destination": expected])
    }

    // MARK: Built products

    @Test func builtProductsAreFoundWhereverTheTestsRun() throws {
        // The fixture is a dependency of this test target, so it is built: found on Linux next to the test
        // executable, on macOS next to the .xctest bundle, and in any case in the package's .build/debug.
        let writer = try BuiltProducts.require(
            "RecordingWriterFixture", build: "swift build --product RecordingWriterFixture")
        #expect(FileManager.default.isExecutableFile(atPath: writer.path))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        #expect(
            BuiltProducts.folders().contains {
                $0.standardizedFileURL == root.appendingPathComponent(".build/debug").standardizedFileURL
            })
    }

    @Test func aMissingProductThrowsSayingWhatToBuild() {
        #expect {
            try BuiltProducts.require("no-such-product", build: "swift build --product no-such-product")
        } throws: { error in
            let message = "\(error)"
            return message.contains("no-such-product is not built")
                && message.contains("swift build --product no-such-product")
        }
    }
}

/// Notes the quality of service of the threads that run it: the client's worker (as a processor) and a
/// destination's thread.
private final class QualityOfServiceProbe: Processor, Destination, @unchecked Sendable {
    // @unchecked: `qualities` is guarded by `lock`.
    private let lock = NSLock()
    private var qualities: [String: QualityOfService] = [:]
    var name: String { "probe" }
    var seen: [String: QualityOfService] { lock.withLock { qualities } }

    func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
        lock.withLock { qualities["processor"] = Thread.current.qualityOfService }
        return .keep
    }

    func receive(_ envelope: Envelope, context: DestinationContext) throws {
        lock.withLock { qualities["destination"] = Thread.current.qualityOfService }
    }
}

/// The one writer of standard error in this package's code: a failed write is an error number, never an abort.
struct StandardStreamsTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full (Linux)"))
    func aWriteToAFullDeviceReportsTheError() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(StandardStreams.write("text\n", to: descriptor) == ENOSPC)
    }

    @Test func aWriteToAPipeArrivesWhole() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        #expect(StandardStreams.write("hello\n", to: ends[1]) == nil)
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = read(ends[0], &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "hello\n")
    }
}
