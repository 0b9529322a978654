// swift-tools-version: 6.1

import PackageDescription

// A package that uses Tally the way the README tells an app team to: `Tally` in the app's target,
// `TallyTesting` (and nothing else) in its test targets. `.ci/run` builds it, runs `ConsumerTests` (must
// pass) and `ConsumerFailingTests` (must fail, with the expected messages at the expected lines, in Swift
// Testing and XCTest), and checks that its resolved graph is exactly swift-custom-dump and
// xctest-dynamic-overlay: what TallyTesting needs. Checking events against a tracking plan is a tool's job
// (`tally validate`, `tally coverage`), run from a tools package in Fixtures/ConsumerWorkflows.
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
            dependencies: ["HippoAnalytics", .product(name: "Tally", package: "Tally")]
        ),
        .testTarget(
            name: "ConsumerTests",
            dependencies: ["PartnerMapLive", "HippoAnalytics", .product(name: "TallyTesting", package: "Tally")]
        ),
        .testTarget(
            name: "ConsumerFailingTests",
            dependencies: ["PartnerMapLive", "HippoAnalytics", .product(name: "TallyTesting", package: "Tally")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
