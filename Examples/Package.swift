// swift-tools-version: 6.1

import PackageDescription

// The seed scenarios, as an app team would write them: a package of its own that depends on Tally by path,
// so none of these targets, nor Swinject, ever reaches a user of Tally.
//
//   swift run --package-path Examples demo     every scenario through its real code
//   swift test --package-path Examples         the examples' tests
let package = Package(
    name: "TallyExamples",
    platforms: [
        .iOS(.v15),
        .macOS(.v12),
        .tvOS(.v15),
        .watchOS(.v8),
    ],
    dependencies: [
        .package(name: "Tally", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Only the Notes example uses it, for the article's dependency-injection container.
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),
    ],
    targets: [
        // Runs every scenario: `swift run --package-path Examples demo`.
        .executableTarget(
            name: "demo",
            dependencies: [
                .product(name: "Tally", package: "Tally"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "NotesExample", "LoginExample", "MenuExample", "FeedbackFormExample", "PartnerMapLive",
            ],
            path: "Demo"
        ),

        // Notes (seed 000): the adapter pattern around a Google SDK, registered in a DI container; Firebase's
        // limits through Tally's FirebaseDestination.
        .target(name: "NotesGoogleSDK", path: "Notes/Sources/NotesGoogleSDK"),
        .target(name: "NotesFirebaseSDK", path: "Notes/Sources/NotesFirebaseSDK"),
        .target(
            name: "NotesExample",
            dependencies: [
                .product(name: "Tally", package: "Tally"), "NotesGoogleSDK", "NotesFirebaseSDK",
                .product(name: "Swinject", package: "Swinject"),
            ],
            path: "Notes/Sources/NotesExample"
        ),
        .testTarget(
            name: "NotesExampleTests",
            dependencies: ["NotesExample", .product(name: "TallyTesting", package: "Tally"), .product(name: "TallyPlan", package: "Tally")],
            path: "Notes/Tests/NotesExampleTests"
        ),

        // Login (seed 002): unit tests with a spy, and the UI-test equivalent on a separate process.
        .target(
            name: "LoginExample", dependencies: [.product(name: "Tally", package: "Tally")],
            path: "Login/Sources/LoginExample"),
        .executableTarget(name: "login-example", dependencies: ["LoginExample"], path: "Login/Sources/login-example"),
        .testTarget(
            name: "LoginExampleTests",
            dependencies: ["LoginExample", "login-example", .product(name: "TallyTesting", package: "Tally"), .product(name: "TallyPlan", package: "Tally")],
            path: "Login/Tests/LoginExampleTests"
        ),

        // Menu (seed 003): TDD with a spy, and a one-to-one spy of the Hippo Analytics client.
        .target(name: "HippoAnalytics", path: "Menu/Sources/HippoAnalytics"),
        .target(
            name: "MenuExample",
            dependencies: [.product(name: "Tally", package: "Tally"), "HippoAnalytics"],
            path: "Menu/Sources/MenuExample"
        ),
        .testTarget(
            name: "MenuExampleTests",
            dependencies: ["MenuExample", "HippoAnalytics", .product(name: "TallyTesting", package: "Tally"), .product(name: "TallyPlan", package: "Tally")],
            path: "Menu/Tests/MenuExampleTests"
        ),

        // FeedbackForm (seed 001): a static-delegate SDK wrapped on the SDKBridge, in two forms.
        .target(name: "FeedbackThirdParty", path: "FeedbackForm/Sources/FeedbackThirdParty"),
        .target(
            name: "FeedbackFormExample",
            dependencies: [.product(name: "Tally", package: "Tally"), "FeedbackThirdParty"],
            path: "FeedbackForm/Sources/FeedbackFormExample"
        ),
        .testTarget(
            name: "FeedbackFormExampleTests",
            dependencies: [
                "FeedbackFormExample", "FeedbackThirdParty", .product(name: "TallyTesting", package: "Tally"), .product(name: "TallyPlan", package: "Tally"),
            ],
            path: "FeedbackForm/Tests/FeedbackFormExampleTests"
        ),

        // PartnerMap (seed 004): a facade over a map SDK; the view model and its tests never see the SDK.
        .target(name: "PartnerMapSDK", path: "PartnerMap/Sources/PartnerMapSDK"),
        .target(
            name: "PartnerMapExample", dependencies: [.product(name: "Tally", package: "Tally")],
            path: "PartnerMap/Sources/PartnerMapExample"),
        .target(
            name: "PartnerMapLive",
            dependencies: ["PartnerMapExample", "PartnerMapSDK", .product(name: "Tally", package: "Tally")],
            path: "PartnerMap/Sources/PartnerMapLive"
        ),
        .testTarget(
            name: "PartnerMapExampleTests",
            dependencies: ["PartnerMapExample", .product(name: "TallyTesting", package: "Tally"), .product(name: "TallyPlan", package: "Tally")],
            path: "PartnerMap/Tests/PartnerMapExampleTests"
        ),
        .testTarget(
            name: "PartnerMapLiveExampleTests",
            dependencies: [
                "PartnerMapLive", "PartnerMapExample", "PartnerMapSDK",
                .product(name: "TallyTesting", package: "Tally"), .product(name: "TallyPlan", package: "Tally"),
            ],
            path: "PartnerMap/Tests/PartnerMapLiveExampleTests"
        ),
    ],
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
