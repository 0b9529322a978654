// "Generating spies with @Spy", Properties: a facade with a delegate (seed 004), whose reads are recorded only
// when a test asks.

import TallySpy
import Testing

/// What the screen hears from the map.
protocol MapProviderDelegate: AnyObject {
    func didTapMarker(withID id: String)
}

/// The facade over the map SDK.
@Spy
protocol MapViewProvidable: AnyObject {
    var delegate: (any MapProviderDelegate)? { get set }
    var zoom: Double { get }
}

final class MapScreen: MapProviderDelegate {
    func didTapMarker(withID id: String) {}
}

@Test func readsAreRecordedWhenTheTestAsks() {
    let map = MapViewProvidableSpy()
    map.recordsPropertyReads = true
    map.stub(.zoom, returning: 1.0)
    let screen = MapScreen()
    map.delegate = screen
    _ = map.zoom
    map.expectCalled(.setDelegate(screen))
    map.expectCalled(.zoom)
    map.expectNothingElse()
}
