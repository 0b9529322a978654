// swift-tools-version: 6.1

import PackageDescription

let package = Package(
    name: "Tally",
    platforms: [
        .iOS(.v15),
        .macOS(.v12),
        .tvOS(.v15),
        .watchOS(.v8),
    ],
    products: [
        .library(name: "Tally", targets: ["Tally"]),
        .library(name: "TallyTesting", targets: ["TallyTesting"]),
        .library(name: "TallyPlan", targets: ["TallyPlan"]),
        .executable(name: "tally", targets: ["tally"]),
        .plugin(name: "TallyPlanGenerator", targets: ["TallyPlanGenerator"]),
        // The durable HTTP destination (Segment's tracking API); its sources compile only with the `Delivery` trait.
        .library(name: "TallyDelivery", targets: ["TallyDelivery"]),
    ],
    // Optional parts, off by default: a package that depends on Tally resolves and builds none of their
    // dependencies unless it asks for the trait. This repository builds and tests with --enable-all-traits.
    traits: [
        .trait(name: "CLI", description: "The tally command line (ArgumentParser): swift run --traits CLI tally --help"),
        .trait(name: "Delivery", description: "TallyDelivery: the durable HTTP destination on SQLite (GRDB)."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // Only TallyDelivery uses it, behind the `Delivery` trait.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // The core: Foundation only.
        .target(name: "Tally"),
        .target(
            name: "TallyTesting",
            dependencies: [
                "Tally",
                "TallyPlan",
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                // Without it, IssueReporting cannot reach Swift Testing and a failing expectation passes.
                // Linked here so that a test target depending on TallyTesting alone gets it.
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
        .target(
            name: "TallyPlan",
            dependencies: [
                "Tally",
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "tally",
            dependencies: [
                "Tally",
                "TallyPlan",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CLI"])),
            ]
        ),
        // The build plugin's tool: `tally gen` without the command line's dependencies.
        .executableTarget(name: "tally-plan-generator", dependencies: ["TallyPlan"], path: "Sources/TallyPlanGeneratorTool"),
        // Helpers shared by this repository's own tests; not a product.
        .target(name: "TallyTestSupport", path: "Sources/TallyTestSupport"),
        .testTarget(
            name: "TallyTests",
            dependencies: [
                "Tally",
                "TallyTesting",
                "TallyTestSupport",
                "TallyPlan",
                "RecordingWriterFixture",
            ]
        ),
        // A process that appends records until it is killed: the writer the recording fault tests kill
        // mid-write. Not a product.
        .executableTarget(name: "RecordingWriterFixture", dependencies: ["Tally"], path: "Tests/RecordingWriterFixture"),
        .testTarget(
            name: "TallyPlanTests",
            dependencies: [
                "TallyPlan",
                "Tally",
                "TallyTesting",
                "TallyTestSupport",
                "TallyPlanGeneratorFixture",
            ],
            resources: [.copy("Fixtures")]
        ),
        // Regenerates event factories from a target's tracking-plan.yaml on every build.
        .plugin(name: "TallyPlanGenerator", capability: .buildTool(), dependencies: ["tally-plan-generator"]),
        // Proves the plugin: compiles only if the plugin generated its factory.
        .target(
            name: "TallyPlanGeneratorFixture",
            dependencies: ["Tally"],
            path: "Plugins/TallyPlanGeneratorFixture",
            exclude: ["tracking-plan.yaml"],
            plugins: ["TallyPlanGenerator"]
        ),
        .testTarget(
            name: "TallyTestingTests",
            dependencies: [
                "Tally",
                "TallyTesting",
                "TallyTestSupport",
                "TallyPlan",
            ]
        ),

        // MARK: Delivery (the `Delivery` trait): the durable HTTP destination, its gzip and its tests.

        .target(
            name: "TallyDelivery",
            dependencies: [
                "Tally",
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["Delivery"])),
                .target(name: "CTallyZlib", condition: .when(traits: ["Delivery"])),
            ]
        ),
        // The system's zlib (in Apple's SDKs; `zlib1g-dev` on Debian), for gzip request bodies.
        .systemLibrary(name: "CTallyZlib", path: "Sources/CTallyZlib", providers: [.apt(["zlib1g-dev"])]),
        // A sender process for the kill -9 tests and the benchmarks' soak: tracks numbered events into an
        // HTTPDestination and prints what it committed.
        .executableTarget(
            name: "tally-delivery-sender",
            dependencies: ["Tally", "TallyDelivery"],
            path: "Tests/TallyDeliveryFixtures/tally-delivery-sender"
        ),
        .testTarget(
            name: "TallyDeliveryTests",
            dependencies: [
                "TallyDelivery", "Tally", "TallyTestSupport", "tally-delivery-sender",
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["Delivery"])),
            ],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .plugin && target.type != .system {  // no Swift settings there
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ])
    target.swiftSettings = settings
}
