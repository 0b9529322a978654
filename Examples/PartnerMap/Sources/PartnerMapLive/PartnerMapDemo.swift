import Foundation
import PartnerMapExample
import PartnerMapSDK
import Tally

/// The PartnerMap scenario for the examples' demo (`swift run --package-path Examples demo`): the screen loads the live map with three partners, and the
/// user taps two partners' markers (one twice); the demo reports what was tracked and what the map SDK
/// holds and told its delegate.
public enum PartnerMapDemo {
    /// Runs the scenario and returns the report, one line each. `extra` destinations (the demo's
    /// `--collector`) receive every event too.
    @MainActor
    public static func run(alsoSendingTo extra: [any Destination] = []) async -> [String] {
        MapServices.provideAPIKey("partner-map-demo-key")
        let trackedLines = DemoLines()
        let tracked = ConsoleDestination(name: "tracked", prefix: "", write: trackedLines.append)
        let analytics = AnalyticsClient(destinations: [tracked] + extra)
        let screen: PartnerMapViewModel
        do {
            screen = try PartnerMapViewModel.live(partners: Partner.samples, analytics: analytics)
        } catch {
            return ["could not create the map: \(error)"]
        }
        guard let provider = screen.mapProvider as? MapViewProvider else { return ["not the live map provider"] }
        screen.viewDidLoad()

        let map = provider.mapWrapper
        var taps: [String] = []
        for id in ["cafe-tortoni", "la-bombonera", "cafe-tortoni"] {
            guard let marker = map.markers.first(where: { $0.userData as? String == id }) else { continue }
            map.simulateUserTap(on: marker)
            taps.append(
                "  tap on \"\(marker.title ?? "")\" -> MapViewDelegate.mapView(_:didTap:) -> didTapMarker(withID: \"\(id)\")"
            )
        }
        await analytics.shutdown()

        var lines = [
            "tracked (\(trackedLines.lines.count) events, by PartnerMapViewModel through the MapViewProvidable facade):"
        ]
        lines += trackedLines.lines.map { "  \($0)" }
        let rounded = { (degrees: Double) in (degrees * 10_000).rounded() / 10_000 }
        lines.append(
            "MapView holds \(map.markers.count) markers, camera at (\(rounded(map.camera.target.latitude)), "
                + "\(rounded(map.camera.target.longitude))), zoom \(map.camera.zoom); taps the SDK reported:")
        lines += taps
        return lines
    }
}

/// Lines collected from any thread, for the demo's report.
///
/// `@unchecked Sendable`: `collected` is only touched while `lock` is held.
final class DemoLines: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    @Sendable func append(_ line: String) { lock.withLock { collected.append(line) } }
    var lines: [String] { lock.withLock { collected } }
}
