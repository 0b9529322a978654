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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
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
                "TallyPlan",
                "RecordingWriterFixture",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
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
