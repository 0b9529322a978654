// "Names a vendor SDK shares": a file that imports Tally and AmplitudeSwift (Amplitude-Swift 1.18.6, which
// re-exports AmplitudeCore 1.4.9) names `AnalyticsClient` and `Identity` with their module,
// and AmplitudeAdapter's doc comment's setup compiles in that form. Amplitude's `AnalyticsClient` is
// AmplitudeCore's, re-exported: `AmplitudeSwift.AnalyticsClient` names it too.

import AmplitudeSwift
import Tally

func makeAmplitudeClient(key: String) -> Tally.AnalyticsClient {
    let amplitude = AmplitudeDestination(adapter: Amplitude(configuration: Configuration(apiKey: key)))
    return Tally.AnalyticsClient(destinations: [amplitude])
}

func tallysView(of analytics: Tally.AnalyticsClient) -> (Tally.Identity, Statistics) {
    (analytics.identity, analytics.statistics)
}

func amplitudesView(of amplitude: Amplitude) -> AmplitudeSwift.Identity { amplitude.identity }

func amplitudesDiagnostics() -> AmplitudeSwift.Diagnostics.Type { AmplitudeSwift.Diagnostics.self }

func amplitudeUserId(_ client: some AmplitudeCore.AnalyticsClient) -> String? { client.identity.userId }

func amplitudeSessionId(_ client: some AmplitudeSwift.AnalyticsClient) -> Int64 { client.sessionId }
