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

    /// The app's manifest as the tests start it: one partial entry, and a key Tally does not write.
    static let appManifest = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
            <key>NSPrivacyAccessedAPITypes</key>
            <array>
                <dict>
                    <key>NSPrivacyAccessedAPIType</key><string>NSPrivacyAccessedAPICategoryUserDefaults</string>
                    <key>NSPrivacyAccessedAPITypeReasons</key><array><string>CA92.1</string></array>
                </dict>
            </array>
            <key>NSPrivacyCollectedDataTypes</key>
            <array>
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
        """

    @Test func mergingAddsWhatTheAppsManifestLacksAndRemovesNothing() throws {
        let manifest = PrivacyManifest(plan: try TrackingPlan(text: Self.plan))
        let (text, added) = try manifest.merged(into: Data(Self.appManifest.utf8))
        #expect(
            added == [
                "NSPrivacyTracking set to true",
                "NSPrivacyCollectedDataTypeDeviceID (linked, tracking, purposes: ThirdPartyAdvertising; from ad_clicked)",
                "NSPrivacyCollectedDataTypeEmailAddress: the purpose NSPrivacyCollectedDataTypePurposeAnalytics",
                "NSPrivacyCollectedDataTypeEmailAddress: linked to the user",
                "NSPrivacyCollectedDataTypeOtherUserContent (linked, purposes: Analytics; from signed_up)",
                "NSPrivacyCollectedDataTypeProductInteraction (linked, tracking, purposes: Analytics, ThirdPartyAdvertising; from ad_clicked, signed_up)",
                "NSPrivacyCollectedDataTypeUserID (linked, purposes: AppFunctionality; from user)",
            ])
        let merged = Data(text.utf8)
        #expect(try manifest.gaps(in: merged).isEmpty)
        let root = try #require(try PropertyListSerialization.propertyList(from: merged, format: nil) as? [String: Any])
        #expect((root["NSPrivacyAccessedAPITypes"] as? [[String: Any]])?.count == 1)
        let email = (root["NSPrivacyCollectedDataTypes"] as? [[String: Any]])?.first
        #expect(
            email?["NSPrivacyCollectedDataTypePurposes"] as? [String] == [
                "NSPrivacyCollectedDataTypePurposeAppFunctionality", "NSPrivacyCollectedDataTypePurposeAnalytics",
            ])
        // A second merge adds nothing.
        #expect(try manifest.merged(into: merged).added.isEmpty)
    }

    @Test func theCommandPrintsWritesAndChecks() throws {
        let plan = try Fixtures.write(Self.plan)
        let printed = PlanTool.privacyManifest(planPath: plan.path)
        #expect(printed.exitCode == 0)
        #expect(printed.standardOutput == PrivacyManifest(plan: try TrackingPlan(text: Self.plan)).propertyListText)

        let file = try Fixtures.temporaryDirectory().appendingPathComponent("App/PrivacyInfo.xcprivacy")
        let missing = PlanTool.privacyManifest(planPath: plan.path, outputPath: file.path, check: true)
        #expect(missing.exitCode == 66)
        #expect(missing.standardError.contains("\(file.path): error: no such file; run tally privacy-manifest"))

        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(Self.appManifest.utf8).write(to: file)
        let gaps = PlanTool.privacyManifest(planPath: plan.path, outputPath: file.path, check: true)
        #expect(gaps.exitCode == 1)
        #expect(
            gaps.standardError.hasPrefix(
                "\(file.path): error: NSPrivacyTracking must be true: NSPrivacyCollectedDataTypeDeviceID, "))
        #expect(
            gaps.standardError.hasSuffix(
                "\(file.path): 7 gaps; run tally privacy-manifest --plan \(plan.path) --output \(file.path)\n"))

        let written = PlanTool.privacyManifest(planPath: plan.path, outputPath: file.path)
        #expect(written.exitCode == 0)
        #expect(written.standardOutput.hasPrefix("Added to \(file.path):\n  + NSPrivacyTracking set to true\n"))
        #expect(written.standardOutput.components(separatedBy: "\n  + ").count == 8)
        let covered = PlanTool.privacyManifest(planPath: plan.path, outputPath: file.path, check: true)
        #expect(covered.exitCode == 0)
        #expect(covered.standardOutput == "\(file.path) declares the 5 data types \(plan.path) implies\n")
        let again = PlanTool.privacyManifest(planPath: plan.path, outputPath: file.path)
        #expect(again.standardOutput == "\(file.path) already declares the 5 data types \(plan.path) implies\n")

        let fresh = file.deletingLastPathComponent().appendingPathComponent("New.xcprivacy")
        let created = PlanTool.privacyManifest(planPath: plan.path, outputPath: fresh.path)
        #expect(created.standardOutput == "Wrote 5 data types to \(fresh.path)\n")
        #expect(try String(contentsOf: fresh, encoding: .utf8) == printed.standardOutput)
    }

    @Test func theCommandsBadInputHasItsExitCode() throws {
        let directory = try Fixtures.temporaryDirectory()
        #expect(PlanTool.privacyManifest(planPath: directory.appendingPathComponent("none.yaml").path).exitCode == 66)
        let invalid = try Fixtures.write("version: 1\nevents:\n  - kind: trak\n    name: x\n")
        let refused = PlanTool.privacyManifest(planPath: invalid.path)
        #expect(refused.exitCode == 65)
        #expect(refused.standardError.contains("error: "))
        let plan = try Fixtures.write(Self.plan)
        let notAManifest = directory.appendingPathComponent("Bad.xcprivacy")
        try Data("not a plist".utf8).write(to: notAManifest)
        for check in [false, true] {
            let result = PlanTool.privacyManifest(planPath: plan.path, outputPath: notAManifest.path, check: check)
            #expect(result.exitCode == 65)
            #expect(
                result.standardError.hasPrefix(
                    "\(notAManifest.path): error: The privacy manifest is not a property list"))
        }
        #expect(try String(contentsOf: notAManifest, encoding: .utf8) == "not a plist")
        // A folder where the file should be cannot be written.
        let folder = directory.appendingPathComponent("Folder.xcprivacy")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(PlanTool.privacyManifest(planPath: plan.path, outputPath: folder.path).exitCode == 66)
    }

    @Test func aFileThatIsNotAManifestIsRefusedClearly() throws {
        let manifest = PrivacyManifest(plan: try TrackingPlan(text: Self.plan))
        #expect(throws: PrivacyManifestError.self) { try manifest.gaps(in: Data("not a plist".utf8)) }
        let array = Data(#"<?xml version="1.0"?><plist version="1.0"><array/></plist>"#.utf8)
        #expect(throws: PrivacyManifestError("The privacy manifest's root must be a dictionary")) {
            try manifest.gaps(in: array)
        }
    }
    // MARK: Tracking domains

    /// Two destinations that name their hosts: `ads` receives advertising (tracking), `product` does not.
    static let domainsPlan = """
        version: 1
        destinations:
          product: { purposes: [analytics, necessary], domains: [api.product.example] }
          ads: { purposes: [advertising], domains: [track.ads.example, pixel.ads.example] }
        events:
          - name: app_opened
            description: The app opened.
          - name: ad_clicked
            description: The user opened an ad.
            purpose: advertising

        """

    /// An app's manifest that declares what `domainsPlan` collects, with `domains` as its tracking domains
    /// (nil: no `NSPrivacyTrackingDomains` key).
    static func appManifest(trackingDomains domains: [String]?) -> Data {
        let list = domains.map { domains in
            "<key>NSPrivacyTrackingDomains</key><array>"
                + domains.map { "<string>\($0)</string>" }.joined() + "</array>"
        }
        return Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>NSPrivacyTracking</key><true/>
                \(list ?? "")
                <key>NSPrivacyCollectedDataTypes</key>
                <array>
                    <dict>
                        <key>NSPrivacyCollectedDataType</key><string>NSPrivacyCollectedDataTypeProductInteraction</string>
                        <key>NSPrivacyCollectedDataTypeLinked</key><false/>
                        <key>NSPrivacyCollectedDataTypeTracking</key><true/>
                        <key>NSPrivacyCollectedDataTypePurposes</key>
                        <array>
                            <string>NSPrivacyCollectedDataTypePurposeAnalytics</string>
                            <string>NSPrivacyCollectedDataTypePurposeThirdPartyAdvertising</string>
                        </array>
                    </dict>
                </array>
            </dict>
            </plist>
            """.utf8)
    }

    /// What iOS does with a domain listed there, said where it matters.
    static let productListed =
        "api.product.example (destination product) is listed in NSPrivacyTrackingDomains, but product receives no advertising: iOS blocks its uploads until the user allows tracking; remove it"

    @Test func theTrackingDestinationsDomainsAreTheTrackingDomains() throws {
        let manifest = PrivacyManifest(plan: try TrackingPlan(text: Self.domainsPlan))
        #expect(manifest.trackingDomains == ["pixel.ads.example", "track.ads.example"])
        #expect(manifest.nonTrackingDomains == ["api.product.example": ["product"]])
        let data = Data(manifest.propertyListText.utf8)
        let read = try #require(
            try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(read["NSPrivacyTrackingDomains"] as? [String] == ["pixel.ads.example", "track.ads.example"])
        #expect(try manifest.gaps(in: data).isEmpty)
        // A plan whose destinations name no hosts writes no NSPrivacyTrackingDomains.
        let none = PrivacyManifest(plan: try TrackingPlan(text: Self.plan))
        #expect(none.trackingDomains.isEmpty)
        #expect(none.propertyList["NSPrivacyTrackingDomains"] == nil)
        #expect(!none.propertyListText.contains("NSPrivacyTrackingDomains"))
    }

    @Test func aTrackingDomainTheAppsFileLacksIsAGap() throws {
        let manifest = PrivacyManifest(plan: try TrackingPlan(text: Self.domainsPlan))
        #expect(
            try manifest.gaps(in: Self.appManifest(trackingDomains: nil)) == [
                "NSPrivacyTrackingDomains lacks pixel.ads.example (destination ads, which receives advertising)",
                "NSPrivacyTrackingDomains lacks track.ads.example (destination ads, which receives advertising)",
            ])
        #expect(
            try manifest.gaps(in: Self.appManifest(trackingDomains: ["track.ads.example"])) == [
                "NSPrivacyTrackingDomains lacks pixel.ads.example (destination ads, which receives advertising)"
            ])
        // Host names are case-insensitive; the file may list more domains than the plan knows.
        let covered = Self.appManifest(trackingDomains: ["Pixel.Ads.Example", "track.ads.example", "cdn.ads.example"])
        #expect(try manifest.gaps(in: covered).isEmpty)
    }

    @Test func aNonTrackingDestinationsDomainListedAsTrackingIsAGapThatSaysWhatIOSDoes() throws {
        let manifest = PrivacyManifest(plan: try TrackingPlan(text: Self.domainsPlan))
        let listed = Self.appManifest(trackingDomains: [
            "pixel.ads.example", "track.ads.example", "API.product.example",
        ])
        #expect(try manifest.gaps(in: listed) == [Self.productListed])
        // Merging removes nothing, so the gap stays.
        let (text, added) = try manifest.merged(into: listed)
        #expect(added.isEmpty)
        #expect(try manifest.gaps(in: Data(text.utf8)) == [Self.productListed])
    }

    @Test func mergingAddsTheMissingTrackingDomainsAndRemovesNone() throws {
        let manifest = PrivacyManifest(plan: try TrackingPlan(text: Self.domainsPlan))
        let (text, added) = try manifest.merged(
            into: Self.appManifest(trackingDomains: ["cdn.ads.example", "track.ads.example"]))
        #expect(added == ["NSPrivacyTrackingDomains: pixel.ads.example"])
        let merged = Data(text.utf8)
        let root = try #require(try PropertyListSerialization.propertyList(from: merged, format: nil) as? [String: Any])
        #expect(
            root["NSPrivacyTrackingDomains"] as? [String] == [
                "cdn.ads.example", "track.ads.example", "pixel.ads.example",
            ])
        #expect(try manifest.gaps(in: merged).isEmpty)
        #expect(try manifest.merged(into: merged).added.isEmpty)
        // A file without the key gains it.
        let fresh = try manifest.merged(into: Self.appManifest(trackingDomains: nil))
        #expect(
            fresh.added == [
                "NSPrivacyTrackingDomains: pixel.ads.example", "NSPrivacyTrackingDomains: track.ads.example",
            ])
    }

    @Test func trackingDomainsThatAreNotAListAreRefused() throws {
        let manifest = PrivacyManifest(plan: try TrackingPlan(text: Self.domainsPlan))
        let text = String(decoding: Self.appManifest(trackingDomains: nil), as: UTF8.self)
            .replacingOccurrences(
                of: "<key>NSPrivacyTracking</key><true/>",
                with: "<key>NSPrivacyTracking</key><true/><key>NSPrivacyTrackingDomains</key><string>x</string>")
        let error = PrivacyManifestError("The privacy manifest's NSPrivacyTrackingDomains must be an array of strings")
        #expect(throws: error) { try manifest.gaps(in: Data(text.utf8)) }
        #expect(throws: error) { try manifest.merged(into: Data(text.utf8)) }
    }

    @Test func theCommandSaysWhatItWillNotRemove() throws {
        let plan = try Fixtures.write(Self.domainsPlan)
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("PrivacyInfo.xcprivacy")
        try Self.appManifest(trackingDomains: ["api.product.example"]).write(to: file)
        let rerun = "run tally privacy-manifest --plan \(plan.path) --output \(file.path)"
        let before = PlanTool.privacyManifest(planPath: plan.path, outputPath: file.path, check: true)
        #expect(before.exitCode == 1)
        #expect(
            before.standardError == """
                \(file.path): error: NSPrivacyTrackingDomains lacks pixel.ads.example (destination ads, which receives advertising)
                \(file.path): error: NSPrivacyTrackingDomains lacks track.ads.example (destination ads, which receives advertising)
                \(file.path): error: \(Self.productListed)
                \(file.path): 3 gaps; \(rerun), then edit the file for the 1 it cannot fix: it removes nothing

                """)

        let written = PlanTool.privacyManifest(planPath: plan.path, outputPath: file.path)
        #expect(written.exitCode == 1)
        #expect(
            written.standardOutput == """
                Added to \(file.path):
                  + NSPrivacyTrackingDomains: pixel.ads.example
                  + NSPrivacyTrackingDomains: track.ads.example

                """)
        #expect(
            written.standardError == """
                \(file.path): error: \(Self.productListed)
                \(file.path): 1 gap left: tally privacy-manifest removes nothing; edit the file

                """)
        let again = PlanTool.privacyManifest(planPath: plan.path, outputPath: file.path)
        #expect(again.exitCode == 1)
        #expect(again.standardError.hasSuffix("1 gap left: tally privacy-manifest removes nothing; edit the file\n"))
        let check = PlanTool.privacyManifest(planPath: plan.path, outputPath: file.path, check: true)
        #expect(check.exitCode == 1)
        #expect(
            check.standardError == """
                \(file.path): error: \(Self.productListed)
                \(file.path): 1 gap; tally privacy-manifest removes nothing; edit the file

                """)
        // Once removed by hand, the file passes.
        try Self.appManifest(trackingDomains: ["track.ads.example", "pixel.ads.example"]).write(to: file)
        let covered = PlanTool.privacyManifest(planPath: plan.path, outputPath: file.path, check: true)
        #expect(covered.exitCode == 0)
        #expect(
            covered.standardOutput
                == "\(file.path) declares the 1 data type and 2 tracking domains \(plan.path) implies\n")
    }
}
