#if SpyMacro
import Foundation
import TallySpy

// Seed 004's facade over a map SDK: a class protocol whose delegate the real provider holds weakly.

/// What the screen hears from the map.
@MainActor
protocol MapProviderDelegate: AnyObject {
    func didTapMarker(withID id: String)
}

/// The facade the screen talks to instead of the SDK.
@Spy
protocol MapViewProvidable: AnyObject {
    /// Told when the user taps a marker. Held weakly by the real provider.
    var delegate: (any MapProviderDelegate)? { get set }
    var zoom: Double { get }
    func addMarker(_ id: String)
}

/// The screen's model, the map's delegate: a lock and a history, whose dump would run to lines of text and
/// addresses.
@MainActor
final class MapScreenModel: MapProviderDelegate {
    let lock = NSLock()
    var tapped: [String] = []
    let map: any MapViewProvidable

    init(map: any MapViewProvidable) {
        self.map = map
        map.delegate = self
    }

    func didTapMarker(withID id: String) {
        tapped.append(id)
    }

    func show(_ ids: [String]) {
        for id in ids where map.delegate === self && map.zoom >= 0 {
            map.addMarker(id)
        }
    }
}
#endif
