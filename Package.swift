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
        // `@Spy`: its macro exists only with the `SpyMacro` trait (see the trait below).
        .library(name: "TallySpy", targets: ["TallySpy"]),
    ],
    traits: [
        // `@Spy`, the generated spy: the only part that needs swift-syntax. Off by default, so a package that
        // doesn't enable it never fetches or builds swift-syntax.
        .trait(name: "SpyMacro", description: "The @Spy macro in TallySpy (builds swift-syntax)."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // Only the Notes example uses it, for the article's dependency-injection container.
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),
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
            dependencies: [
                "Tally",
                "TallySpy",
                "TallyTesting",
                "TallyTestSupport",
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
