import Foundation
import Tally
import TallyPlan
import Testing

/// Data that reaches a destination which may receive advertising is tracking data in the privacy manifest,
/// whatever its event's purpose, and `tally privacy-manifest --check` says which destination made it so.
@Suite(.readsPlans) struct PrivacyManifestTrackingTests {
    @Test func dataAnAdvertisingDestinationMayReceiveIsTrackingAndTheCheckSaysWhichDestination() throws {
        let text = """
            version: 1
            consent: { required: [analytics] }
            destinations:
              product: { purposes: [analytics, necessary] }
              ads: { purposes: [advertising, analytics] }
            events:
              - name: app_opened
                description: The app opened.
              - name: receipt_sent
                description: A receipt was e-mailed.
                purpose: necessary
                properties:
                  email: { type: string, personal: { kind: email, rule: hash } }
            """
        let manifest = PrivacyManifest(plan: try TrackingPlan(text: text))
        #expect(
            manifest.entries.map(\.description) == [
                "NSPrivacyCollectedDataTypeEmailAddress (purposes: AppFunctionality; from receipt_sent)",
                "NSPrivacyCollectedDataTypeProductInteraction (tracking, purposes: Analytics, AppFunctionality; from app_opened, receipt_sent)",
            ])
        #expect(manifest.entries.map(\.trackingDestinations) == [[], ["ads"]])
        #expect(manifest.tracks)
        let folder = try Fixtures.temporaryDirectory()
        let planFile = folder.appendingPathComponent("plan.yaml")
        try Data(text.utf8).write(to: planFile)
        let appFile = folder.appendingPathComponent("PrivacyInfo.xcprivacy")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>NSPrivacyTracking</key><false/>
                <key>NSPrivacyCollectedDataTypes</key>
                <array>
                    <dict>
                        <key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypeProductInteraction</string>
                        <key>NSPrivacyCollectedDataTypeLinked</key><false/>
                        <key>NSPrivacyCollectedDataTypeTracking</key><false/>
                        <key>NSPrivacyCollectedDataTypePurposes</key>
                        <array>
                            <string>NSPrivacyCollectedDataTypePurposeAnalytics</string>
                            <string>NSPrivacyCollectedDataTypePurposeAppFunctionality</string>
                        </array>
                    </dict>
                    <dict>
                        <key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypeEmailAddress</string>
                        <key>NSPrivacyCollectedDataTypeLinked</key><false/>
                        <key>NSPrivacyCollectedDataTypeTracking</key><false/>
                        <key>NSPrivacyCollectedDataTypePurposes</key>
                        <array><string>NSPrivacyCollectedDataTypePurposeAppFunctionality</string></array>
                    </dict>
                </array>
            </dict>
            </plist>
            """.utf8
        ).write(to: appFile)
        let check = PlanTool.privacyManifest(planPath: planFile.path, outputPath: appFile.path, check: true)
        #expect(check.exitCode == 1)
        #expect(
            check.standardError == """
                \(appFile.path): error: NSPrivacyTracking must be true: NSPrivacyCollectedDataTypeProductInteraction is collected for tracking (sent to destination ads, which receives advertising)
                \(appFile.path): error: NSPrivacyCollectedDataTypeProductInteraction must be declared as tracking (sent to destination ads, which receives advertising)
                \(appFile.path): 2 gaps; run tally privacy-manifest --plan \(planFile.path) --output \(appFile.path)

                """, "\(check.standardError)")
    }

    @Test func anAdvertisingEventIsTrackingForItsPurposeAndItsDestination() throws {
        let text = """
            version: 1
            consent: { required: [advertising] }
            destinations:
              ads: { purposes: [advertising] }
            events:
              - name: ad_clicked
                description: The user opened an ad.
                purpose: advertising
            """
        let entry = try #require(PrivacyManifest(plan: try TrackingPlan(text: text)).entries.first)
        #expect(entry.tracking)
        #expect(entry.trackingDestinations == ["ads"])
        #expect(
            try PrivacyManifest(plan: try TrackingPlan(text: text)).gaps(in: Data(Self.untrackedManifest.utf8)).last
                == "NSPrivacyCollectedDataTypeProductInteraction must be declared as tracking (collected for advertising, and sent to destination ads, which receives advertising)"
        )
    }

    static let untrackedManifest = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
            <key>NSPrivacyTracking</key><true/>
            <key>NSPrivacyCollectedDataTypes</key>
            <array>
                <dict>
                    <key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypeProductInteraction</string>
                    <key>NSPrivacyCollectedDataTypeLinked</key><false/>
                    <key>NSPrivacyCollectedDataTypeTracking</key><false/>
                    <key>NSPrivacyCollectedDataTypePurposes</key>
                    <array><string>NSPrivacyCollectedDataTypePurposeThirdPartyAdvertising</string></array>
                </dict>
            </array>
        </dict>
        </plist>
        """
}
