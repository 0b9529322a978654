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
        // The collector server behind `tally collect`; empty unless the Collector trait is enabled.
        .library(name: "TallyCollector", targets: ["TallyCollector"]),
    ],
    traits: [
        .trait(
            name: "Collector",
            description: "The collector server (tally collect, the TallyCollector library): Hummingbird, SwiftNIO and GRDB."
        )
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // The collector's (trait Collector): a consumer who does not enable the trait fetches none of them.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
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
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .target(name: "TallyCollector", condition: .when(traits: ["Collector"])),
            ]
        ),
        // `tally collect`: ingest, the SQLite store, the read API and the live page. Its sources are wrapped
        // in `#if Collector`, so without the trait it is empty and needs none of these packages.
        .target(
            name: "TallyCollector",
            dependencies: [
                "Tally",
                "TallyPlan",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Collector"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Collector"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Collector"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Collector"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Collector"])),
                .product(name: "UnixSignals", package: "swift-service-lifecycle", condition: .when(traits: ["Collector"])),
                .product(name: "CompressNIO", package: "compress-nio", condition: .when(traits: ["Collector"])),
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["Collector"])),
            ]
        ),
        // Helpers shared by this repository's own tests; not a product.
        .target(name: "TallyTestSupport", path: "Sources/TallyTestSupport"),
        .testTarget(
            name: "TallyTests",
            dependencies: [
                "Tally",
                "TallyTesting",
                "TallyTestSupport",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
        .testTarget(
            name: "TallyPlanTests",
            dependencies: [
                "TallyPlan",
                "Tally",
                "TallyTesting",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
                "TallyPlanGeneratorFixture",
            ],
            resources: [.copy("Fixtures")]
        ),
        // Regenerates event factories from a target's tracking-plan.yaml on every build.
        .plugin(name: "TallyPlanGenerator", capability: .buildTool(), dependencies: ["tally"]),
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
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
        .testTarget(
            name: "TallyCollectorTests",
            dependencies: [
                "Tally",
                "TallyTesting",
                "TallyPlan",
                "TallyTestSupport",
                .target(name: "TallyCollector", condition: .when(traits: ["Collector"])),
                .target(name: "tally", condition: .when(traits: ["Collector"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Collector"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Collector"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Collector"])),
                .product(name: "CompressNIO", package: "compress-nio", condition: .when(traits: ["Collector"])),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .plugin {  // plugins take no Swift settings
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ])
    target.swiftSettings = settings
}
