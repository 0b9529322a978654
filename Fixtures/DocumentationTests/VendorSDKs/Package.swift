// swift-tools-version: 6.1

import PackageDescription

// Stand-ins for the vendor SDKs the documentation's code imports, each a module named as the real one is.
// The five real vendors' (Segment, Mixpanel, Amplitude with AmplitudeCore, Firebase Analytics, RudderStack)
// mirror the exact public signatures of one release, named in each file's header: every declaration Tally's
// adapters, docs and conformances touch, and every public type name the SDK shares with Tally's. Their
// bodies do nothing.
//
// They are a package of their own, as a vendor's SDK is, so that the docs' code is checked as an app's
// is: an extension that conforms a vendor's type to one of Tally's protocols is a conformance between two
// other packages' declarations (`@retroactive`), and a vendor module built in the Swift 5 language mode is
// another package's Swift 5 module.
let package = Package(
    name: "VendorSDKs",
    // AmplitudeCore's `AnalyticsClient` is available from these, as in the SDK.
    platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "FirebaseAnalytics", targets: ["FirebaseAnalytics"]),
        .library(name: "Segment", targets: ["Segment"]),
        .library(name: "AmplitudeSwift", targets: ["AmplitudeSwift"]),
        .library(name: "Mixpanel", targets: ["Mixpanel"]),
        .library(name: "RudderStackAnalytics", targets: ["RudderStackAnalytics"]),
        .library(name: "HippoAnalytics", targets: ["HippoAnalytics"]),
        .library(name: "ThirdPartySDK", targets: ["ThirdPartySDK"]),
        .library(name: "UIKitStandIn", targets: ["UIKitStandIn"]),
    ],
    targets: [
        // Vendors' SDKs, built as most are shipped today: in the Swift 5 language mode.
        .target(name: "FirebaseAnalytics", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "Segment", swiftSettings: [.swiftLanguageMode(.v5)]),
        // Amplitude-Swift re-exports AmplitudeCore, a package of its own in reality.
        .target(name: "AmplitudeCore", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "AmplitudeSwift", dependencies: ["AmplitudeCore"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "Mixpanel", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "RudderStackAnalytics", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "HippoAnalytics", swiftSettings: [.swiftLanguageMode(.v5)]),
        // "Wrapping awkward SDKs"'s static-delegate SDK, with its interface as the article shows it.
        .target(name: "ThirdPartySDK", dependencies: ["UIKitStandIn"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // UIKit's `UIViewController`, which Linux lacks. Not named `UIKit`: `#if canImport(UIKit)` would
        // then hold in every dependency (CustomDump has UIKit conformances), and they would not build.
        .target(name: "UIKitStandIn"),
    ],
    swiftLanguageModes: [.v6]
)
