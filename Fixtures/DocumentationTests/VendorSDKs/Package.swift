// swift-tools-version: 6.1

import PackageDescription

// Stand-ins for the vendor SDKs the documentation's code imports, each a module named as the real one is
// and with the real SDK's signatures for the calls the docs make. They do nothing.
//
// They are a package of their own, as a vendor's SDK is, so that the docs' code is checked as an app's
// is: an extension that conforms a vendor's type to one of Tally's protocols is a conformance between two
// other packages' declarations (`@retroactive`), and a vendor module built in the Swift 5 language mode is
// another package's Swift 5 module.
let package = Package(
    name: "VendorSDKs",
    products: [
        .library(name: "FirebaseAnalytics", targets: ["FirebaseAnalytics"]),
        .library(name: "Segment", targets: ["Segment"]),
        .library(name: "AmplitudeSwift", targets: ["AmplitudeSwift"]),
        .library(name: "HippoAnalytics", targets: ["HippoAnalytics"]),
        .library(name: "ThirdPartySDK", targets: ["ThirdPartySDK"]),
        .library(name: "UIKitStandIn", targets: ["UIKitStandIn"]),
    ],
    targets: [
        // Vendors' SDKs, built as most are shipped today: in the Swift 5 language mode.
        .target(name: "FirebaseAnalytics", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "Segment", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "AmplitudeSwift", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "HippoAnalytics", swiftSettings: [.swiftLanguageMode(.v5)]),
        // "Wrapping awkward SDKs"'s static-delegate SDK, with its interface as the article shows it.
        .target(name: "ThirdPartySDK", dependencies: ["UIKitStandIn"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // UIKit's `UIViewController`, which Linux lacks. Not named `UIKit`: `#if canImport(UIKit)` would
        // then hold in every dependency (CustomDump has UIKit conformances), and they would not build.
        .target(name: "UIKitStandIn"),
    ],
    swiftLanguageModes: [.v6]
)
