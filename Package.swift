// swift-tools-version: 6.1

import CompilerPluginSupport
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
        // `@Spy`: the macro exists only with the SpyMacro trait.
        .library(name: "TallySpy", targets: ["TallySpy"]),
    ],
    // Optional parts, off by default: a package that depends on Tally resolves and builds none of their
    // dependencies unless it asks for the trait. This repository builds and tests with --enable-all-traits.
    traits: [
        .trait(name: "CLI", description: "The tally command line (ArgumentParser): swift run --traits CLI tally --help"),
        .trait(name: "SpyMacro", description: "The @Spy macro of the TallySpy product (swift-syntax)."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // Only with the SpyMacro trait: the @Spy macro and its expansion tests.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"605.0.0"),
        .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.7.0"),
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
            ]
        ),
        .testTarget(
            name: "TallyPlanTests",
            dependencies: [
                "TallyPlan",
                "Tally",
                "TallyTesting",
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
            ]
        ),
        .testTarget(
            name: "TallySpyTests",
            dependencies: ["Tally", "TallySpy", "TallyTesting", "TallyTestSupport"]
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
