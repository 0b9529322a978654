// A dependency whose availability comes from its own availability macro (as Hummingbird's does):
// Tiny declares `Router` with `@available(TinyAvailability 1.0, *)`, i.e. macOS 14, iOS 17, tvOS 17, watchOS 10.
import Tiny

func makeRouter() -> Bool {
    let router = Router() // expect: Tiny.Router
    _ = router
    return Plain().value == 0
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
func makeRouterWhenAvailable() {
    _ = Router()
}
