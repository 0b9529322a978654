// swift-tools-version: 6.1

// The fuzz targets of Tally's parsers (issue 34): libFuzzer executables, one per parser that reads outside
// bytes. Not one of Tally's products and never linked by them: a package of its own, built target by
// target with the fuzzer's flags given on the command line (README.md, .ci/check-fuzz):
//
//     swift build --package-path Fuzz -c debug --product FuzzJSON -Xswiftc -sanitize=fuzzer,address
//
// Debug, because SwiftPM then compiles every module with -enable-testing: the targets reach the parsers'
// internal entry points with @testable import.
import PackageDescription

let package = Package(
    name: "TallyFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Tally", path: "..", traits: ["Plans", "Delivery", "Collector", "SpyMacro"]),
        // The version range of Tally's own manifest, for the @Spy macro's sources below.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"605.0.0"),
        // For the ByteBuffer the collector's IngestBody.decode takes.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // Declares libFuzzer's driver, which each target's main calls.
        .target(name: "FuzzDriver"),
        .executableTarget(name: "FuzzJSON", dependencies: ["FuzzDriver", .product(name: "Tally", package: "Tally")]),
        .executableTarget(
            name: "FuzzRecords", dependencies: ["FuzzDriver", .product(name: "Tally", package: "Tally")]),
        .executableTarget(
            name: "FuzzPlan",
            dependencies: [
                "FuzzDriver", .product(name: "Tally", package: "Tally"), .product(name: "TallyPlan", package: "Tally"),
            ]),
        .executableTarget(
            name: "FuzzIngest",
            dependencies: [
                "FuzzDriver", .product(name: "Tally", package: "Tally"),
                .product(name: "TallyCollector", package: "Tally"),
                .product(name: "NIOCore", package: "swift-nio"),
                // Its gzip writer, to check that a gzipped body reads as the plain one.
                .product(name: "TallyDelivery", package: "Tally"),
            ]),
        .executableTarget(
            name: "FuzzQueueRows",
            dependencies: [
                "FuzzDriver", .product(name: "Tally", package: "Tally"),
                .product(name: "TallyDelivery", package: "Tally"),
            ]),
        .executableTarget(
            name: "FuzzQueueLedger",
            dependencies: ["FuzzDriver", .product(name: "TallyDelivery", package: "Tally")]),
        // The @Spy macro's implementation is a macro target, which no product exports: its sources are
        // compiled here once more as a library (Sources/TallySpyMacrosUnderTest is a link to them), without
        // the compiler plugin's entry point.
        .target(
            name: "TallySpyMacrosUnderTest",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ],
            exclude: ["Plugin.swift"],
            swiftSettings: [.define("SpyMacro")]),
        .executableTarget(
            name: "FuzzSpyParser",
            dependencies: [
                "FuzzDriver", "TallySpyMacrosUnderTest",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
