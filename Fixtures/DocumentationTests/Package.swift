// swift-tools-version: 6.1

import PackageDescription

// The code of Tally's README and DocC articles, compiled and, where it is a test, run. `.ci/check-doc-code`
// checks that every ```swift block of those files appears here line for line, then builds and tests this
// package. A package of its own, so that its targets may take any names.
//
// One test target per article holds that article's code verbatim; what an article leaves implicit (a
// `MenuItem`, a `logger`, an envelope) is in a support file of its target. An article showing two
// alternative forms of one type has a second target for the second form. The vendor SDKs the docs import
// are stand-ins in VendorSDKs/, a package of its own as a vendor's SDK is.

var tally: Target.Dependency { .product(name: "Tally", package: "Tally") }
var tallyTesting: Target.Dependency { .product(name: "TallyTesting", package: "Tally") }
func vendor(_ name: String) -> Target.Dependency { .product(name: name, package: "VendorSDKs") }

let package = Package(
    name: "DocumentationTests",
    // Tally's own floors, as an app reading the docs has them: a snippet that needs a newer OS (a `Duration`,
    // a `Clock`) says so with `@available` or `#available`, and `.ci/check-availability` holds it to that.
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v9)],
    dependencies: [
        .package(name: "Tally", path: "../..", traits: ["CLI", "Delivery", "Collector", "SpyMacro"]),
        .package(path: "VendorSDKs"),
    ],
    targets: [
        .testTarget(
            name: "ReadmeDocTests",
            dependencies: ["PlannedApp", tally, tallyTesting, vendor("FirebaseAnalytics")]
        ),
        .testTarget(
            name: "GettingStartedDocTests",
            dependencies: [tally, tallyTesting, vendor("FirebaseAnalytics")]
        ),
        // Its client follows PlannedApp's generated rules; TallyPlan checks that they are what tally gen writes.
        .testTarget(
            name: "PrivacyAndConsentDocTests",
            dependencies: ["PlannedApp", tally, tallyTesting, .product(name: "TallyPlan", package: "Tally")]
        ),
        // The landing page, Tally.md.
        .testTarget(
            name: "TallyDocTests",
            dependencies: [tally, vendor("FirebaseAnalytics")]
        ),
        .testTarget(
            name: "WritingADestinationDocTests",
            dependencies: [tally, tallyTesting, vendor("HippoAnalytics")]
        ),
        .testTarget(
            name: "VendorAdaptersDocTests",
            dependencies: [
                tally, tallyTesting, vendor("FirebaseAnalytics"), vendor("Segment"), vendor("AmplitudeSwift"),
                vendor("Mixpanel"), vendor("RudderStackAnalytics"), vendor("HippoAnalytics"),
            ]
        ),
        // The wrapper's struct form, its tests, and the @preconcurrency import of a Swift 5 SDK.
        .testTarget(
            name: "WrappingAwkwardSDKsDocTests",
            dependencies: [tally, tallyTesting, vendor("ThirdPartySDK"), vendor("UIKitStandIn")]
        ),
        // The wrapper's protocol form, which declares `FeedbackService` too.
        .testTarget(
            name: "WrappingAwkwardSDKsProtocolFormDocTests",
            dependencies: [tally, tallyTesting, vendor("ThirdPartySDK"), vendor("UIKitStandIn")]
        ),
        // The landing page, TallyTesting.md, is in AppTests below. Its plan checks use PlannedApp's plan.
        .testTarget(
            name: "TestingYourAnalyticsDocTests",
            dependencies: ["PlannedApp", tally, tallyTesting, .product(name: "TallyPlan", package: "Tally")]
        ),
        .testTarget(
            name: "RecordingCallsDocTests",
            dependencies: [tally, tallyTesting, vendor("ThirdPartySDK")]
        ),
        // The seed's hand-written spy that "Recording calls" starts from, which declares the same names.
        .testTarget(
            name: "RecordingCallsSeedDocTests",
            dependencies: []
        ),
        // The landing page, TallyPlan.md. Its events come from the plugin-generated factories of App.
        .testTarget(
            name: "TallyPlanDocTests",
            dependencies: ["App", tally, tallyTesting, .product(name: "TallyPlan", package: "Tally")]
        ),
        .testTarget(
            name: "TrackingPlansDocTests",
            dependencies: ["PlannedApp", tally, .product(name: "TallyPlan", package: "Tally")]
        ),
        // TallyCollector's articles and TallyTesting's collector section (the Collector trait).
        .testTarget(
            name: "TallyCollectorDocTests",
            dependencies: [
                tally, tallyTesting, .product(name: "TallyCollector", package: "Tally"),
                .product(name: "TallyPlan", package: "Tally"),
            ]
        ),
        // TallyDelivery.md and "How delivery works" (the Delivery trait).
        .testTarget(
            name: "TallyDeliveryDocTests",
            dependencies: [tally, .product(name: "TallyDelivery", package: "Tally")]
        ),
        .testTarget(
            name: "ReadingRecordingsDocTests",
            dependencies: [tally, .product(name: "TallyPlan", package: "Tally")]
        ),
        // TallySpy (the SpyMacro trait): its landing page, and "Generating spies with @Spy".
        .testTarget(name: "TallySpyDocTests", dependencies: [.product(name: "TallySpy", package: "Tally")]),
        .testTarget(name: "GeneratingSpiesDocTests", dependencies: [.product(name: "TallySpy", package: "Tally")]),
        // "Upgrading Tally": the code after each change.
        .testTarget(
            name: "UpgradingTallyDocTests",
            dependencies: [
                "PlannedApp", tally, tallyTesting, .product(name: "TallyPlan", package: "Tally"),
                .product(name: "TallyDelivery", package: "Tally"),
            ]
        ),
        // The examples of the public libraries' doc comments (Quick Help, the DocC symbol pages), a file per
        // library, with what they leave implicit in a support file per library.
        .testTarget(
            name: "DocCommentExamplesTests",
            dependencies: [
                "PlannedApp", tally, tallyTesting, .product(name: "TallyPlan", package: "Tally"),
                .product(name: "TallySpy", package: "Tally"), .product(name: "TallyDelivery", package: "Tally"),
                .product(name: "TallyCollector", package: "Tally"),
            ]
        ),
        // Tally's examples, with the vendor SDKs' stand-ins.
        .testTarget(
            name: "DocCommentExamplesTallyTests",
            dependencies: [
                tally, tallyTesting, vendor("FirebaseAnalytics"), vendor("Segment"), vendor("AmplitudeSwift"),
                vendor("Mixpanel"), vendor("ThirdPartySDK"), vendor("UIKitStandIn"),
            ]
        ),
        // TallyTesting's examples, whose spies and models have the names of TallySpy's.
        .testTarget(
            name: "DocCommentExamplesTestingTests",
            dependencies: [
                tally, tallyTesting, .product(name: "TallyPlan", package: "Tally"),
                .product(name: "TallySpy", package: "Tally"),
            ]
        ),
        // Spy.swift's example, which declares the same `UserService` as SpyProtocol's.
        .testTarget(name: "DocCommentExamplesSpyTests", dependencies: [.product(name: "TallySpy", package: "Tally")]),
    ]
)

// "Tracking plans": the build-tool plugin on an app target, as the article writes it. Its plan is the one
// of TallyPlan.md.
package.targets.append(
    .target(
        name: "App",
        dependencies: [.product(name: "Tally", package: "Tally")],
        exclude: ["tracking-plan.yaml"],
        plugins: [.plugin(name: "TallyPlanGenerator", package: "Tally")]
    )
)

// "Privacy and consent", the README's "From a tracking plan" and the plan checks of "Testing your analytics":
// an app that links Tally only and follows its plan through the rules `tally gen` wrote into Generated/
// (committed, as an app commits them; PrivacyAndConsentDocTests fails when they are not what it writes).
package.targets.append(
    .target(
        name: "PlannedApp",
        dependencies: [.product(name: "Tally", package: "Tally")],
        exclude: ["tracking-plan.yaml"]
    )
)

// TallyTesting.md: a test target with TallyTesting and nothing else. It holds that page's test.
package.targets.append(
    .testTarget(name: "AppTests", dependencies: ["App", .product(name: "TallyTesting", package: "Tally")])
)

// Swift 6, as a new package is, with the checks this repository's own code has: code that compiles with
// them compiles without them too.
for target in package.targets where target.type != .plugin {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ])
    target.swiftSettings = settings
}
package.swiftLanguageModes = [.v6]
