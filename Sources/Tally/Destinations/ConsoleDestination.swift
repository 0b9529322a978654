import Foundation

/// Writes one readable line per event, like the seed's `ConsoleAnalytics`.
///
/// ```text
/// [analytics] screen Login
/// [analytics] track login_tapped {"action":"tap"}
/// [analytics] identify user-42 {"plan":"pro"}
/// ```
///
/// Lines go to standard output unless you pass your own `write`. Standard output is buffered when it is not
/// a terminal (a pipe to a log collector, a file): ``flush()``, which the client's `flush()` and
/// `shutdown()` run, flushes it, so every line written before is out when they return.
public struct ConsoleDestination: Destination {
    public let name: String
    private let prefix: String
    private let write: @Sendable (String) -> Void
    private let flushOutput: (@Sendable () -> Void)?

    /// Creates a console destination printing to standard output.
    ///
    /// - Parameters:
    ///   - name: the destination's name. Default `console`.
    ///   - prefix: put before each line. Default `[analytics]`.
    public init(name: String = "console", prefix: String = "[analytics]") {
        self.init(name: name, prefix: prefix, write: { print($0) }, flushOutput: { fflush(nil) })
    }

    /// A console destination with its own way to flush, for tests of ``flush()``.
    package init(
        name: String, prefix: String, write: @escaping @Sendable (String) -> Void,
        flushOutput: (@Sendable () -> Void)?
    ) {
        self.name = name
        self.prefix = prefix
        self.write = write
        self.flushOutput = flushOutput
    }

    /// Creates a console destination that hands each line to `write` instead of printing it.
    ///
    /// - Parameters:
    ///   - name: the destination's name. Default `console`.
    ///   - prefix: put before each line. Default `[analytics]`.
    ///   - write: receives each line, without a newline.
    public init(name: String = "console", prefix: String = "[analytics]", write: @escaping @Sendable (String) -> Void) {
        self.init(name: name, prefix: prefix, write: write, flushOutput: nil)
    }

    public func receive(_ envelope: Envelope, context: DestinationContext) throws {
        write(Self.line(for: envelope.event, prefix: prefix))
    }

    /// Flushes standard output when the destination prints there; does nothing for a custom `write`.
    public func flush() {
        flushOutput?()
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
