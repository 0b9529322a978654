import Foundation
import Tally
import TallyPlan
import Testing

/// The privacy-manifest entries a plan implies, and what an app's manifest lacks of them.
@Suite(.readsPlans) struct PrivacyManifestTests {
    static let plan = """
        version: 1
        events:
          - name: signed_up
            description: The user made an account.
            properties:
              email: { type: string, personal: { kind: email, rule: hash } }
              phone: { type: string, personal: { kind: phone, rule: redact } }
              comment: { type: string, personal: { kind: free_text, rule: send } }
          - name: ad_clicked
            description: The user opened an ad.
            purpose: advertising
            properties:
              idfa: { type: string, personal: { kind: advertising_id, rule: send } }
          - kind: identify
            name: user
            description: Who the user is.
            purpose: necessary

        """

    @Test func thePlanImpliesOneEntryPerDataType() throws {
        let manifest = PrivacyManifest(plan: try TrackingPlan(text: Self.plan))
        #expect(
            manifest.entries.map(\.description) == [
                "NSPrivacyCollectedDataTypeDeviceID (linked, tracking, purposes: ThirdPartyAdvertising; from ad_clicked)",
                "NSPrivacyCollectedDataTypeEmailAddress (linked, purposes: Analytics; from signed_up)",
                "NSPrivacyCollectedDataTypeOtherUserContent (linked, purposes: Analytics; from signed_up)",
                "NSPrivacyCollectedDataTypeProductInteraction (linked, tracking, purposes: Analytics, ThirdPartyAdvertising; from ad_clicked, signed_up)",
                "NSPrivacyCollectedDataTypeUserID (linked, purposes: AppFunctionality; from user)",
            ])
        #expect(manifest.tracks)
        // The written property list reads back as the same keys.
        let data = Data(manifest.propertyListText.utf8)
        let read = try #require(
            try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(read["NSPrivacyTracking"] as? Bool == true)
        #expect((read["NSPrivacyCollectedDataTypes"] as? [[String: Any]])?.count == 5)
        #expect(try manifest.gaps(in: data).isEmpty)
    }

    @Test func anAppManifestThatLacksEntriesIsToldWhat() throws {
        let manifest = PrivacyManifest(plan: try TrackingPlan(text: Self.plan))
        let app = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
                <key>NSPrivacyTracking</key><false/>
                <key>NSPrivacyCollectedDataTypes</key>
                <array>
                    <dict>
                        <key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypeProductInteraction</string>
                        <key>NSPrivacyCollectedDataTypeLinked</key><true/>
                        <key>NSPrivacyCollectedDataTypeTracking</key><false/>
                        <key>NSPrivacyCollectedDataTypePurposes</key>
                        <array><string>NSPrivacyCollectedDataTypePurposeAnalytics</string></array>
                    </dict>
                    <dict>
                        <key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypeEmailAddress</string>
                        <key>NSPrivacyCollectedDataTypeLinked</key><false/>
                        <key>NSPrivacyCollectedDataTypeTracking</key><false/>
                        <key>NSPrivacyCollectedDataTypePurposes</key>
                        <array><string>NSPrivacyCollectedDataTypePurposeAnalytics</string></array>
                    </dict>
                </array>
            </dict>
            </plist>
            """
        #expect(
            try manifest.gaps(in: Data(app.utf8)) == [
                "NSPrivacyTracking must be true: NSPrivacyCollectedDataTypeDeviceID, NSPrivacyCollectedDataTypeProductInteraction is collected for tracking",
                "missing NSPrivacyCollectedDataTypeDeviceID (linked, tracking, purposes: ThirdPartyAdvertising; from ad_clicked)",
                "NSPrivacyCollectedDataTypeEmailAddress must be linked to the user (the plan identifies users)",
                "missing NSPrivacyCollectedDataTypeOtherUserContent (linked, purposes: Analytics; from signed_up)",
                "NSPrivacyCollectedDataTypeProductInteraction lacks the purpose NSPrivacyCollectedDataTypePurposeThirdPartyAdvertising (from ad_clicked, signed_up)",
                "NSPrivacyCollectedDataTypeProductInteraction must be declared as tracking (collected for advertising)",
                "missing NSPrivacyCollectedDataTypeUserID (linked, purposes: AppFunctionality; from user)",
            ])
    }

    @Test func aFileThatIsNotAManifestIsRefusedClearly() throws {
        let manifest = PrivacyManifest(plan: try TrackingPlan(text: Self.plan))
        #expect(throws: PrivacyManifestError.self) { try manifest.gaps(in: Data("not a plist".utf8)) }
        let array = Data(#"<?xml version="1.0"?><plist version="1.0"><array/></plist>"#.utf8)
        #expect(throws: PrivacyManifestError("The privacy manifest's root must be a dictionary")) {
            try manifest.gaps(in: array)
        }
    }
}
