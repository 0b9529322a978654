#if SpyMacro
import Foundation
import IssueReportingTestSupport
import TallySpy
import Testing

/// `@Spy` on seed 004's facade, a class protocol with a delegate (issue 24): reads are not calls, the
/// delegate stays weak, and the setter's argument reads as the delegate's type.
@MainActor
@Suite struct SpyFacadeTests {
    @Test func readingAPropertyIsNotACall() {
        let map = MapViewProvidableSpy(mode: .relaxed)
        let screen = MapScreenModel(map: map)
        screen.show(["a", "b"])
        map.expectCalled(.setDelegate(screen))
        map.expectCalls(inOrder: [.addMarker("a"), .addMarker("b")])
        map.expectNothingElse()
        #expect(
            map.calls.map(\.description) == ["setDelegate(<MapScreenModel>)", "addMarker(\"a\")", "addMarker(\"b\")"])
    }

    @Test func readsAreCallsWhenTheTestAsks() {
        let map = MapViewProvidableSpy(mode: .relaxed)
        map.recordsPropertyReads = true
        let screen = MapScreenModel(map: map)
        screen.show(["a"])
        map.expectCalls(inOrder: [.setDelegate(screen), .delegate, .zoom, .addMarker("a")])
        map.expectNothingElse()
    }

    @Test func aStubbedPropertyAnswersWithoutRecordingTheRead() {
        let map = MapViewProvidableSpy()
        map.stub(.zoom, returning: 12.5)
        #expect(map.zoom == 12.5)
        #expect(map.calls.isEmpty)
    }

    @Test func theSpyHoldsTheDelegateWeakly() {
        let map = MapViewProvidableSpy()
        weak var released: MapScreenModel?
        do {
            let screen = MapScreenModel(map: map)
            released = screen
            #expect(map.delegate === screen)
        }
        #expect(released == nil, "the spy kept the delegate alive")
        #expect(map.delegate == nil)
        // The call stays recorded, by the delegate's type.
        #expect(map.calls.map(\.description) == ["setDelegate(<MapScreenModel>)"])
    }

    @Test func aSetterArgumentComparesByIdentity() {
        let map = MapViewProvidableSpy()
        let screen = MapScreenModel(map: map)
        let other = MapScreenModel(map: MapViewProvidableSpy())
        map.expectNotCalled(.setDelegate(other))
        map.expectCalled(.setDelegate(screen))
        map.delegate = nil
        map.expectCalled(.setDelegate(nil))
        #expect(map.delegate == nil)
    }

    @Test func aFailureShowsTheDelegateByItsType() {
        let map = MapViewProvidableSpy()
        let screen = MapScreenModel(map: map)
        let other = MapScreenModel(map: MapViewProvidableSpy())
        withKnownIssue {
            map.expectCalled(.setDelegate(other))
        } matching: { issue in
            let message = issue.comments.map(\.rawValue).joined()
            return message.contains("setDelegate(<MapScreenModel>)") && !message.contains("0x")
                && !message.contains("NSLock") && message.count < 1_000
        }
        _ = screen
    }
}
#endif
