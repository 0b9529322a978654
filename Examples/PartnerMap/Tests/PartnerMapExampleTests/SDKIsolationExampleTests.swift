import Foundation
import Testing

/// The article's red flag is `import GoogleMaps` in a test. This target's manifest entry does not depend
/// on the map SDK, but SwiftPM puts every module of a package on one search path, so an `import` would
/// still compile. This test makes the rule hold: neither the screen's module nor its tests import the SDK
/// or the live provider.
struct SDKIsolationExampleTests {
    static let partnerMap = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ["Sources/PartnerMapExample", "Tests/PartnerMapExampleTests"])
    func neverImportsTheMapSDK(folder: String) throws {
        let directory = Self.partnerMap.appendingPathComponent(folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(!files.isEmpty)
        for file in files {
            let source = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            let imports = source.split(separator: "\n").filter { $0.hasPrefix("import ") || $0.contains(" import ") }
            for module in ["PartnerMapSDK", "PartnerMapLive"] {
                #expect(!imports.contains { $0.hasSuffix(" \(module)") }, "\(folder)/\(file) imports \(module)")
            }
        }
    }
}
