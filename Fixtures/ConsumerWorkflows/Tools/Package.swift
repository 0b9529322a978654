// swift-tools-version: 6.1

import PackageDescription

// The app's tools package, as README's "Run the tally command line" describes it: it depends on Tally with the
// `CLI` and `Collector` traits (both turn on `Plans`, so `tally` reads tracking-plan.yaml) and declares
// nothing of its own, so that
// `swift run --package-path Tools tally ...` builds the command line while the app's package never resolves
// ArgumentParser, Hummingbird, SwiftNIO or GRDB.
let package = Package(
    name: "Tools",
    platforms: [.macOS(.v14)],  // tally collect's server needs macOS 14
    dependencies: [
        .package(name: "Tally", path: "../../..", traits: ["CLI", "Collector"])
    ],
    targets: []
)
