import Foundation

/// Adds fixed facts to every envelope's ``Envelope/context``, such as the app version or the library.
///
/// ```swift
/// let analytics = AnalyticsClient(processors: [.context(["app_version": "2.3.0"])], destinations: destinations)
/// ```
///
/// Values already in the context win over these.
public struct ContextProcessor: Processor {
    /// The facts added to each envelope.
    public var values: [String: PropertyValue]

    /// Creates a processor that adds `values`.
    public init(_ values: [String: PropertyValue]) { self.values = values }

    public var name: String { "context" }

    public func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
        if envelope.context.isEmpty {
            // Shares this processor's dictionary: no copy until something changes it.
            envelope.context = values
        } else {
            envelope.context.merge(values) { existing, _ in existing }
        }
        return .keep
    }

    /// The library's name and version and the operating system, under `library` and `os`.
    public static var library: ContextProcessor {
        ContextProcessor([
            "library": ["name": "tally", "version": .string(TallyLibrary.version)],
            "os": [
                "name": .string(TallyLibrary.operatingSystemName),
                "version": .string(TallyLibrary.operatingSystemVersion),
            ],
        ])
    }
}

extension Processor where Self == ContextProcessor {
    /// Adds `values` to every envelope's context. See ``ContextProcessor``.
    public static func context(_ values: [String: PropertyValue]) -> ContextProcessor { ContextProcessor(values) }
}

/// Facts about this library.
public enum TallyLibrary {
    /// This library's version: the one `context.library` carries (``ContextProcessor``, TallyDelivery's
    /// messages) and TallyDelivery's `User-Agent` names.
    public static let version = "0.1.0"

    /// The version of the operating system running, as major.minor.patch: `17.4.0` (not the text of
    /// `operatingSystemVersionString`, "Version 17.4 (Build 21E213)" on Darwin, a distribution's name on
    /// Linux).
    public static var operatingSystemVersion: String {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        return "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
    }

    /// The operating system Tally was built for, such as `Linux` or `iOS`.
    public static var operatingSystemName: String {
        #if os(iOS)
        "iOS"
        #elseif os(macOS)
        "macOS"
        #elseif os(tvOS)
        "tvOS"
        #elseif os(watchOS)
        "watchOS"
        #elseif os(visionOS)
        "visionOS"
        #elseif os(Linux)
        "Linux"
        #elseif os(Windows)
        "Windows"
        #elseif os(Android)
        "Android"
        #else
        "unknown"
        #endif
    }
}
