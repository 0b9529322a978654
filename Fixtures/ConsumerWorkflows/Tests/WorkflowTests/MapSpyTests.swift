import Shop
import TallySpy
import TallyTesting
import Testing

/// The app's facade restated in the tests, as GeneratingSpies.md says: the app module links Tally only.
@Spy(restating: "MapViewProvidable")
protocol MapViewProviding: MapViewProvidable {
    var delegate: (any MapProviderDelegate)? { get set }
    func addPin(_ id: String)
}

/// Seed 004's shape: a facade with a `weak var delegate` in the real provider.
@Suite(.exhaustive) struct MapSpyTests {
    @Test func readingTheDelegateIsNotACall() {
        let map = MapViewProvidingSpy()
        let screen = MapScreenModel(map: map, analytics: AnalyticsSpy())
        screen.show(["a", "b"])
        map.expectCalled(.setDelegate(screen))
        map.expectCalls(inOrder: [.addPin("a"), .addPin("b")])
    }

    @Test func theDelegateStaysWeak() {
        let map = MapViewProvidingSpy()
        weak var released: MapScreenModel?
        do {
            let screen = MapScreenModel(map: map, analytics: AnalyticsSpy())
            released = screen
            #expect(map.delegate === screen)
        }
        #expect(released == nil, "the spy kept the delegate alive")
        #expect(map.delegate == nil)
        #expect(map.calls.map(\.description) == ["setDelegate(<MapScreenModel>)"])
        map.expectCalled(.setDelegate)
    }
}
