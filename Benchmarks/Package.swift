// swift-tools-version: 6.1

import PackageDescription

// Tally's benchmarks: a package of its own so that ordo-one/benchmark and its malloc interposer never reach
// the root package's users. Run from this folder:
//
//     swift package --disable-sandbox benchmark                            # every target
//     swift package --disable-sandbox benchmark --target ClientBenchmarks  # one target
//
// To add a target: create Benchmarks/<Name>/<Name>.swift with `let benchmarks: @Sendable () -> Void = { ... }`
// and add `<Name>` to `benchmarkTargets` below. Shared fixtures live in Sources/BenchmarkSupport;
// Sources/ClientProfile is a plain executable for profilers.

/// Each name is an executable target in Benchmarks/<Name>/ that the benchmark plugin discovers.
let benchmarkTargets = [
    "ClientBenchmarks",
    "TestingBenchmarks",
    "PlanBenchmarks",
    "DeliveryBenchmarks",
    "CollectorBenchmarks",
]

let package = Package(
    name: "TallyBenchmarks",
    platforms: [
        // ordo-one/benchmark needs macOS 13; Synchronization's Atomic (used by the fixtures) needs macOS 15.
        .macOS(.v15)
    ],
    dependencies: [
        // The `Delivery` trait brings TallyDelivery (and GRDB) for DeliveryBenchmarks and DeliverySoak; the
        // `Collector` trait brings TallyCollector for CollectorBenchmarks and CollectorProfile, whose naive
        // reference is a bare Hummingbird route.
        .package(name: "Tally", path: "..", traits: ["Delivery", "Collector"]),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Only the malloc interposer: the default traits also bring the ARC runtime interposer, which
        // crashes on this toolchain (Linux, Swift 6.3). ARC metrics are therefore not used.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Fixtures shared by every benchmark target: the event, the naive reference, cheap destinations.
        // It does not depend on the benchmark library, so ClientProfile runs without the malloc interposer.
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "Tally", package: "Tally")
            ],
            path: "Sources/BenchmarkSupport"
        ),
        // Load for the collector: a loopback HTTP client, Segment batches, and the naive counting route.
        .target(
            name: "CollectorLoad",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The floor per format reads JSON with Tally's reader.
                .product(name: "Tally", package: "Tally"),
                // Only for the collector's executor (SPI), which the counting reference runs on too.
                .product(name: "TallyCollector", package: "Tally"),
            ],
            path: "Sources/CollectorLoad"
        ),
        // The collector at 1,000,000 stored events: resident memory and ingest rate as it fills.
        .executableTarget(
            name: "CollectorProfile",
            dependencies: [
                "CollectorLoad",
                .product(name: "TallyCollector", package: "Tally"),
            ],
            path: "Sources/CollectorProfile"
        ),
        // Ingest speed per wire format (Segment, PostHog, Amplitude, Mixpanel), in one run.
        .executableTarget(
            name: "CollectorFormats",
            dependencies: [
                "CollectorLoad",
                .product(name: "TallyCollector", package: "Tally"),
            ],
            path: "Sources/CollectorFormats"
        ),
        // `tally validate` beside jsonschema-rs, end to end, and its peak memory at 1M and 4M events
        // (BENCHMARKS.md says how to run it; Scripts/validate_jsonschema_rs.py is the reference).
        .executableTarget(
            name: "ValidateComparison",
            dependencies: [
                .product(name: "Tally", package: "Tally"),
                .product(name: "TallyPlan", package: "Tally"),
            ],
            path: "Sources/ValidateComparison"
        ),
        // A plain executable to run under perf or valgrind (not a benchmark: the plugin only runs targets
        // in Benchmarks/).
        .executableTarget(
            name: "ClientProfile",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Tally", package: "Tally"),
            ],
            path: "Sources/ClientProfile"
        ),
        // The consent hold under a million events: memory and drops, beside a hold that keeps everything.
        .executableTarget(
            name: "ConsentHold",
            dependencies: [
                .product(name: "Tally", package: "Tally")
            ],
            path: "Sources/ConsentHold"
        ),
        // The caller's cost of `track` with an SegmentAPIDestination against a no-op destination, in instructions
        // under callgrind (see BENCHMARKS.md).
        .executableTarget(
            name: "DeliveryProfile",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Tally", package: "Tally"),
                .product(name: "TallyDelivery", package: "Tally"),
            ],
            path: "Sources/DeliveryProfile"
        ),
        // The kill -9 soak of TallyDelivery (1,000 kills): `swift run -c release DeliverySoak` (see BENCHMARKS.md).
        .executableTarget(
            name: "DeliverySoak",
            dependencies: [
                .product(name: "Tally", package: "Tally"),
                .product(name: "TallyDelivery", package: "Tally"),
            ],
            path: "Sources/DeliverySoak"
        ),
    ]
        + benchmarkTargets.map { name in
            .executableTarget(
                name: name,
                dependencies: [
                    "BenchmarkSupport",
                    .product(name: "Tally", package: "Tally"),
                    .product(name: "TallyTesting", package: "Tally"),
                    .product(name: "TallyPlan", package: "Tally"),
                    .product(name: "Benchmark", package: "benchmark"),
                ]
                    + (name == "DeliveryBenchmarks"
                        ? [
                            .product(name: "TallyDelivery", package: "Tally"),
                            .product(name: "GRDB", package: "GRDB.swift"),
                        ] : [])
                    + (name == "CollectorBenchmarks"
                        ? ["CollectorLoad", .product(name: "TallyCollector", package: "Tally")] : []),
                path: "Benchmarks/\(name)",
                plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
            )
        },
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ])
    target.swiftSettings = settings
}
