// swift-tools-version: 6.1

import PackageDescription

// A package that uses Tally the way the README tells an app team to: `Tally` in the app's target,
// `TallyTesting` (and nothing else) in its test targets. `.ci/run` builds it, runs `ConsumerTests` (must
// pass) and `ConsumerFailingTests` (must fail, with the expected messages at the expected lines, in Swift
// Testing and XCTest), and checks that its resolved graph holds only packages it builds.
//
// Its targets are named like the examples' (`HippoAnalytics`, `PartnerMapLive`): Tally's manifest must not
// take those names from its users.
let package = Package(
    name: "Consumer",
    platforms: [.iOS(.v15), .macOS(.v12)],
    dependencies: [
        // The README's dependency line, in its path form.
        .package(name: "Tally", path: "../..")
    ],
    targets: [
        .target(name: "HippoAnalytics"),
        .target(
            name: "PartnerMapLive",
            dependencies: ["HippoAnalytics", .product(name: "Tally", package: "Tally")],
            resources: [.copy("tracking-plan.yaml")]
        ),
        .testTarget(
            name: "ConsumerTests",
            dependencies: [
                "PartnerMapLive", "HippoAnalytics", .product(name: "TallyTesting", package: "Tally"),
                // MenuTests checks events against the app's tracking plan: TallyPlan (and its YAML reader,
                // Yams) is built for this target only because it asks for it.
                .product(name: "TallyPlan", package: "Tally"),
            ]
        ),
        .testTarget(
            name: "ConsumerFailingTests",
            dependencies: ["PartnerMapLive", "HippoAnalytics", .product(name: "TallyTesting", package: "Tally")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
