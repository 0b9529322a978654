// swift-tools-version: 6.1

import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Tally",
    platforms: [
        .iOS(.v15),
        .macOS(.v12),
        .tvOS(.v15),
        .watchOS(.v9),
    ],
    products: [
        .library(name: "Tally", targets: ["Tally"]),
        .library(name: "TallyTesting", targets: ["TallyTesting"]),
        .library(name: "TallyPlan", targets: ["TallyPlan"]),
        .executable(name: "tally", targets: ["tally"]),
        .plugin(name: "TallyPlanGenerator", targets: ["TallyPlanGenerator"]),
        // `@Spy`: the macro exists only with the SpyMacro trait.
        .library(name: "TallySpy", targets: ["TallySpy"]),
        // The durable HTTP destination (Segment's tracking API); its sources compile only with the `Delivery` trait.
        .library(name: "TallyDelivery", targets: ["TallyDelivery"]),
        // The collector server behind `tally collect`; its sources compile only with the `Collector` trait.
        .library(name: "TallyCollector", targets: ["TallyCollector"]),
    ],
    // Optional parts, off by default: a package that depends on Tally resolves and builds none of their
    // dependencies unless it asks for the trait. This repository builds and tests with --enable-all-traits.
    traits: [
        .trait(
            name: "Plans",
            description:
                "Reading tracking plans (YAML and JSON, with Yams): TallyPlan's loader, tally-plan-generator and the TallyPlanGenerator plugin."
        ),
        .trait(
            name: "CLI", description: "The tally command line (ArgumentParser): swift run --traits CLI tally --help",
            enabledTraits: ["Plans"]),
        .trait(name: "SpyMacro", description: "The @Spy macro of the TallySpy product (swift-syntax)."),
        .trait(name: "Delivery", description: "TallyDelivery: the durable HTTP destination on SQLite (GRDB)."),
        .trait(
            name: "Collector",
            description:
                "TallyCollector and `tally collect` (with CLI): a local collector on Hummingbird, SwiftNIO and GRDB.",
            enabledTraits: ["Plans"]
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.5.0"),
        // Only TallyPlan's plan reader uses it, behind the `Plans` trait (an app's test target resolves none of it).
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // Only with the SpyMacro trait: the @Spy macro and its expansion tests.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"605.0.0"),
        .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.7.0"),
        // Only TallyDelivery and TallyCollector use it, behind their traits.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // Only TallyCollector uses these, behind the `Collector` trait.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The core: Foundation only. Its privacy manifest declares the required-reason APIs it calls
        // (ApplePlatforms.md; .ci/check-privacy checks it against the sources).
        .target(name: "Tally", resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(
            name: "TallyTesting",
            dependencies: [
                "Tally",
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
                .product(name: "Yams", package: "Yams", condition: .when(traits: ["Plans"])),
            ]
        ),
        .executableTarget(
            name: "tally",
            dependencies: [
                "Tally",
                "TallyPlan",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CLI"])),
                .target(name: "TallyCollector", condition: .when(traits: ["Collector"])),
            ]
        ),
        // The build plugin's tool: `tally gen` without the command line's dependencies.
        .executableTarget(
            name: "tally-plan-generator", dependencies: ["Tally", "TallyPlan"], path: "Sources/TallyPlanGeneratorTool"),
        // Helpers shared by this repository's own tests; not a product.
        .target(name: "TallyTestSupport", path: "Sources/TallyTestSupport"),
        .testTarget(
            name: "TallyTests",
            dependencies: [
                "Tally",
                "TallyTesting",
                "TallyTestSupport",
                // The vendor adapters' spies are generated by @Spy (with the SpyMacro trait).
                "TallySpy",
                "TallyPlan",
                "RecordingWriterFixture",
            ]
        ),
        // A process that appends records until it is killed: the writer the recording fault tests kill
        // mid-write. Not a product.
        .executableTarget(
            name: "RecordingWriterFixture", dependencies: ["Tally"], path: "Tests/RecordingWriterFixture"),
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
            // Without the `Plans` trait the generated file's #error is for users' targets, not this one.
            swiftSettings: [.define("TALLY_PLAN_GENERATOR_FIXTURE")],
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

        // MARK: @Spy (the SpyMacro trait): declarations and runtime, the compiler plugin, and their tests.
        .target(
            name: "TallySpy",
            dependencies: [
                "Tally",
                "TallyTesting",
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
                .target(name: "TallySpyMacros", condition: .when(traits: ["SpyMacro"])),
            ]
        ),
        .macro(
            name: "TallySpyMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax", condition: .when(traits: ["SpyMacro"])),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax", condition: .when(traits: ["SpyMacro"])),
                .product(name: "SwiftParser", package: "swift-syntax", condition: .when(traits: ["SpyMacro"])),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax", condition: .when(traits: ["SpyMacro"])),
                .product(name: "SwiftDiagnostics", package: "swift-syntax", condition: .when(traits: ["SpyMacro"])),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax", condition: .when(traits: ["SpyMacro"])),
            ]
        ),
        .testTarget(
            name: "TallySpyMacrosTests",
            dependencies: [
                .target(name: "TallySpyMacros", condition: .when(traits: ["SpyMacro"])),
                .product(name: "MacroTesting", package: "swift-macro-testing", condition: .when(traits: ["SpyMacro"])),
                // The stress spies' expansion, compared with the copy used without the trait.
                .product(name: "SwiftParser", package: "swift-syntax", condition: .when(traits: ["SpyMacro"])),
                .product(name: "SwiftSyntax", package: "swift-syntax", condition: .when(traits: ["SpyMacro"])),
                .product(
                    name: "SwiftSyntaxMacroExpansion", package: "swift-syntax", condition: .when(traits: ["SpyMacro"])),
            ]
        ),
        .testTarget(
            name: "TallySpyTests",
            dependencies: ["Tally", "TallySpy", "TallyTesting", "TallyTestSupport"]
        ),

        // MARK: Delivery (the `Delivery` trait): the durable HTTP destination, its gzip and its tests.

        .target(
            name: "TallyDelivery",
            dependencies: [
                "Tally",
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["Delivery"])),
                .target(name: "CTallyZlib", condition: .when(traits: ["Delivery"])),
            ],
            // Shipped with or without the trait: an app that links the product embeds the manifest.
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // The system's zlib (in Apple's SDKs; `zlib1g-dev` on Debian), for gzip request bodies.
        .systemLibrary(name: "CTallyZlib", path: "Sources/CTallyZlib", providers: [.apt(["zlib1g-dev"])]),
        // A sender process for the kill -9 tests and the benchmarks' soak: tracks numbered events into an
        // SegmentAPIDestination and prints what it committed.
        .executableTarget(
            name: "tally-delivery-sender",
            dependencies: ["Tally", "TallyDelivery"],
            path: "Tests/TallyDeliveryFixtures/tally-delivery-sender"
        ),
        .testTarget(
            name: "TallyDeliveryTests",
            dependencies: [
                "TallyDelivery", "Tally", "TallyTesting", "TallyTestSupport", "tally-delivery-sender",
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["Delivery"])),
            ],
            exclude: ["Fixtures"]
        ),

        // MARK: Collector (the `Collector` trait): `tally collect`, ingest, the SQLite store, the read API
        // and the live page, and their tests.

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
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: ["Collector"])),
                .product(
                    name: "UnixSignals", package: "swift-service-lifecycle", condition: .when(traits: ["Collector"])),
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["Collector"])),
                // SQLite's C API, which GRDB links: ingest binds each event's columns directly.
                .product(name: "GRDBSQLite", package: "GRDB.swift", condition: .when(traits: ["Collector"])),
                .target(name: "CTallyZlib", condition: .when(traits: ["Collector"])),
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
                .target(name: "CTallyZlib", condition: .when(traits: ["Collector"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Collector"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Collector"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Collector"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Collector"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Collector"])),
                // Writes databases as earlier collectors left them, for the migration tests.
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["Collector"])),
            ]
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
