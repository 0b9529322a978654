/// Writes one readable line per event, like the seed's `ConsoleAnalytics`.
///
/// ```
/// [analytics] screen Login
/// [analytics] track login_tapped {"action":"tap"}
/// [analytics] identify user-42 {"plan":"pro"}
/// ```
///
/// Lines go to standard output unless you pass your own `write`.
public struct ConsoleDestination: Destination {
    public let name: String
    private let prefix: String
    private let write: @Sendable (String) -> Void

    /// Creates a console destination.
    ///
    /// - Parameters:
    ///   - name: the destination's name. Default `console`.
    ///   - prefix: put before each line. Default `[analytics]`.
    ///   - write: receives each line, without a newline. Default: print it.
    public init(
        name: String = "console", prefix: String = "[analytics]",
        write: @escaping @Sendable (String) -> Void = { print($0) }
    ) {
        self.name = name
        self.prefix = prefix
        self.write = write
    }

    public func receive(_ envelope: Envelope, context: DeliveryContext) throws {
        write(Self.line(for: envelope.event, prefix: prefix))
    }

    /// The line written for `event`.
    public static func line(for event: Event, prefix: String = "[analytics]") -> String {
        prefix.isEmpty ? event.description : "\(prefix) \(event.description)"
    }
}

extension Destination where Self == ConsoleDestination {
    /// A console destination printing to standard output. See ``ConsoleDestination``.
    public static var console: ConsoleDestination { ConsoleDestination() }
}
