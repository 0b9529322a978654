// swift-tools-version: 6.1

import PackageDescription

// An app's package that runs every workflow Tally's docs describe from outside Tally's repository
// (issue 24): the app's tests record events for `tally validate` and `tally coverage` (run through the tools
// package in Tools/, as README's "Run the tally command line" says), a process-level test with a collector in
// exhaustive mode, `DestinationConformance` on the app's own destination, and an `@Spy` facade with a weak
// delegate, and a spy of a test protocol refining a spied protocol of another module (Payments). `check` (called by .ci/check-consumer) runs it all; `WorkflowFailingTests` must fail.
//
// The traits are the ones these tests need: `SpyMacro` for `@Spy`, `Collector` for the collector a test
// starts in its own process (it turns on `Plans`, with which the collector checks events against a plan
// file). The command line's `CLI` trait is the tools package's, not this one's.
let package = Package(
    name: "ConsumerWorkflows",
    platforms: [.iOS(.v15), .macOS(.v12)],
    dependencies: [
        // The README's dependency line, in its path form.
        .package(name: "Tally", path: "../..", traits: ["SpyMacro", "Collector"])
    ],
    targets: [
        .target(name: "Shop", dependencies: [.product(name: "Tally", package: "Tally")]),
        // A feature module whose public protocol carries `@Spy`; the tests refine it (issue 36).
        .target(name: "Payments", dependencies: [.product(name: "TallySpy", package: "Tally")]),
        // The "app": tracks the events its arguments name into the collector TALLY_COLLECTOR names.
        .executableTarget(name: "shop-app", dependencies: ["Shop", .product(name: "Tally", package: "Tally")]),
        // What both test targets use to launch the app; not a product.
        .target(name: "ShopAppLauncher", path: "Tests/ShopAppLauncher"),
        .testTarget(
            name: "WorkflowTests",
            dependencies: [
                "Shop", "shop-app", "ShopAppLauncher", "Payments",
                .product(name: "TallyTesting", package: "Tally"),
                .product(name: "TallySpy", package: "Tally"),
                .product(name: "TallyCollector", package: "Tally"),
            ]
        ),
        .testTarget(
            name: "WorkflowFailingTests",
            dependencies: [
                "Shop", "shop-app", "ShopAppLauncher",
                .product(name: "TallyTesting", package: "Tally"),
                .product(name: "TallyCollector", package: "Tally"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
