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
    traits: [
        .trait(name: "Delivery", description: "TallyDelivery: the durable HTTP destination on SQLite (GRDB)."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // Only the Notes example uses it, for the article's dependency-injection container.
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),
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
                "TallyTesting",
                "TallyPlan",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `tally demo` runs every example scenario.
                "NotesExample",
                "LoginExample",
                "MenuExample",
                "FeedbackFormExample",
                "PartnerMapLive",
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

        // MARK: Examples: one folder per seed scenario, each with its simulated vendor SDK as its own module.

        // Examples/Notes (seed 000): the adapter pattern around a Google SDK, registered in a DI container.
        .target(name: "NotesGoogleSDK", path: "Examples/Notes/Sources/NotesGoogleSDK"),
        .target(
            name: "NotesExample",
            dependencies: ["Tally", "NotesGoogleSDK", .product(name: "Swinject", package: "Swinject")],
            path: "Examples/Notes/Sources/NotesExample"
        ),
        .testTarget(
            name: "NotesExampleTests",
            dependencies: [
                "NotesExample", "Tally", "TallyTesting", "TallyPlan",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            path: "Examples/Notes/Tests/NotesExampleTests"
        ),

        // Examples/Login (seed 002): unit tests with a spy, and the UI-test equivalent on a separate process.
        .target(name: "LoginExample", dependencies: ["Tally"], path: "Examples/Login/Sources/LoginExample"),
        .executableTarget(
            name: "login-example",
            dependencies: ["LoginExample", "Tally"],
            path: "Examples/Login/Sources/login-example"
        ),
        .testTarget(
            name: "LoginExampleTests",
            dependencies: [
                "LoginExample", "login-example", "Tally", "TallyTesting", "TallyPlan",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            path: "Examples/Login/Tests/LoginExampleTests"
        ),

        // Examples/Menu (seed 003): TDD with a spy, and a one-to-one spy of the Hippo Analytics client.
        .target(name: "HippoAnalytics", path: "Examples/Menu/Sources/HippoAnalytics"),
        .target(
            name: "MenuExample",
            dependencies: ["Tally", "HippoAnalytics"],
            path: "Examples/Menu/Sources/MenuExample"
        ),
        .testTarget(
            name: "MenuExampleTests",
            dependencies: [
                "MenuExample", "HippoAnalytics", "Tally", "TallyTesting", "TallyPlan",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            path: "Examples/Menu/Tests/MenuExampleTests"
        ),

        // Examples/FeedbackForm (seed 001): a static-delegate SDK wrapped on the SDKBridge, in two forms.
        .target(name: "FeedbackThirdParty", path: "Examples/FeedbackForm/Sources/FeedbackThirdParty"),
        .target(
            name: "FeedbackFormExample",
            dependencies: ["Tally", "FeedbackThirdParty"],
            path: "Examples/FeedbackForm/Sources/FeedbackFormExample"
        ),
        .testTarget(
            name: "FeedbackFormExampleTests",
            dependencies: [
                "FeedbackFormExample", "FeedbackThirdParty", "Tally", "TallyTesting", "TallyPlan",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            path: "Examples/FeedbackForm/Tests/FeedbackFormExampleTests"
        ),

        // Examples/PartnerMap (seed 004): a facade over a map SDK; the view model and its tests never see the SDK.
        .target(name: "PartnerMapSDK", path: "Examples/PartnerMap/Sources/PartnerMapSDK"),
        .target(name: "PartnerMapExample", dependencies: ["Tally"], path: "Examples/PartnerMap/Sources/PartnerMapExample"),
        .target(
            name: "PartnerMapLive",
            dependencies: ["PartnerMapExample", "PartnerMapSDK", "Tally"],
            path: "Examples/PartnerMap/Sources/PartnerMapLive"
        ),
        .testTarget(
            name: "PartnerMapExampleTests",
            dependencies: [
                "PartnerMapExample", "Tally", "TallyTesting", "TallyPlan",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            path: "Examples/PartnerMap/Tests/PartnerMapExampleTests"
        ),
        .testTarget(
            name: "PartnerMapLiveExampleTests",
            dependencies: [
                "PartnerMapLive", "PartnerMapExample", "PartnerMapSDK", "Tally", "TallyTesting", "TallyPlan",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            path: "Examples/PartnerMap/Tests/PartnerMapLiveExampleTests"
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
