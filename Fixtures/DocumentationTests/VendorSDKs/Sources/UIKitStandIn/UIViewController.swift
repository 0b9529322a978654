/// Stands in for UIKit's `UIViewController`: a main-actor class, as UIKit's is, so that the docs' code
/// passing one around is checked as it is on iOS.
@MainActor
open class UIViewController {
    public init() {}
}
