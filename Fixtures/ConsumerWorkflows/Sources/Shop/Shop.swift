import Foundation
import Tally

extension Event {
    /// A product page appeared.
    public static func productViewed(id: String) -> Event { Event("product_viewed", ["product_id": .string(id)]) }
    /// The user paid for the cart.
    public static func checkoutCompleted(total: Double) -> Event {
        Event("checkout_completed", ["total": .double(total)])
    }
    /// The user made an account with `email`, which the client hashes (the plan's rule).
    public static func signedUp(email: String) -> Event { Event("signed_up", ["email": .string(email)]) }
}

/// App code: tracks through the protocol, never a vendor.
public struct ShopModel: Sendable {
    let analytics: any AnalyticsTracking

    /// A model tracking into `analytics`.
    public init(analytics: any AnalyticsTracking) { self.analytics = analytics }

    /// The product page appeared.
    public func view(product id: String) { analytics.track(.productViewed(id: id)) }
    /// The user paid.
    public func checkout(total: Double) { analytics.track(.checkoutCompleted(total: total)) }
    /// The user made an account.
    public func signUp(email: String) { analytics.track(.signedUp(email: email)) }
}

/// What the app's backend client receives: one line per event.
public final class LineLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    /// An empty log.
    public init() {}

    /// Every line so far.
    public var lines: [String] { lock.withLock { stored } }
    /// Adds a line.
    public func append(_ line: String) { lock.withLock { stored.append(line) } }
    /// Forgets every line.
    public func clear() { lock.withLock { stored.removeAll() } }
}

/// The app's own destination: each event as one line to its backend client.
public struct LineDestination: Destination {
    /// Where the lines go.
    public let log: LineLog

    /// A destination writing to `log`.
    public init(log: LineLog) { self.log = log }

    public func receive(_ envelope: Envelope, context: DestinationContext) throws {
        let properties = envelope.event.properties.dictionary.keys.sorted().joined(separator: ",")
        log.append("\(envelope.event.name) \(properties)")
    }
}

/// Told when the user taps a pin.
public protocol MapProviderDelegate: AnyObject {
    /// The user tapped `pin`.
    func mapDidSelect(pin: String)
}

/// Seed 004's facade: the map SDK behind a protocol, with a delegate the real provider holds weakly.
public protocol MapViewProvidable: AnyObject {
    /// Told when the user taps a pin.
    var delegate: (any MapProviderDelegate)? { get set }
    /// Shows a pin.
    func addPin(_ id: String)
}

/// The screen's model, the map's delegate.
public final class MapScreenModel: MapProviderDelegate {
    let map: any MapViewProvidable
    let analytics: any AnalyticsTracking

    /// A screen on `map`, tracking into `analytics`.
    public init(map: any MapViewProvidable, analytics: any AnalyticsTracking) {
        self.map = map
        self.analytics = analytics
        map.delegate = self
    }

    /// Shows the pins.
    public func show(_ pins: [String]) {
        if map.delegate == nil { map.delegate = self }  // a read the spy must not count as a call
        for pin in pins { map.addPin(pin) }
    }

    public func mapDidSelect(pin: String) { analytics.track(.productViewed(id: pin)) }
}
