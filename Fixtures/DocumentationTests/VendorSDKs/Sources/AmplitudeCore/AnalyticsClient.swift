// Stand-in for AmplitudeCore-Swift 1.4.9 (github.com/amplitude/AmplitudeCore-Swift, tag v1.4.9), module
// `AmplitudeCore`, which Amplitude-Swift re-exports (`@_exported import AmplitudeCore` in its
// Sources/Amplitude/Amplitude.swift). Mirrors Sources/AmplitudeCore/Plugins/AnalyticsClient.swift and
// AnalyticsIdentity.swift: the protocol whose name Tally's `AnalyticsClient` shares. The SDK's file also
// imports Combine, which it does not use in these declarations and which Linux lacks; it is left out.

import Foundation

/// A client Amplitude's plugins talk to; `Amplitude` conforms.
@available(macOS 10.15, iOS 13.0, watchOS 6.0, tvOS 13.0, *)
public protocol AnalyticsClient<Identity>: AnyObject {
    associatedtype Identity: AnalyticsIdentity

    var identity: Identity { get }
    var sessionId: Int64 { get }
    var optOut: Bool { get }

    func track(eventType: String, eventProperties: [String: Any]?)
}

/// Who the user is, as a client knows it.
public protocol AnalyticsIdentity {
    var deviceId: String? { get }
    var userId: String? { get }
    var userProperties: [String: Any] { get }
}
