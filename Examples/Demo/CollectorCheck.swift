import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Whether the collector the demo was pointed at answers, before any scenario waits on it.
enum CollectorCheck {
    /// Nil when `GET /tally/status` answers 200; else what went wrong, to print.
    static func problem(at url: URL) async -> String? {
        var request = URLRequest(url: url.appendingPathComponent("tally/status"), timeoutInterval: 5)
        request.httpMethod = "GET"
        do {
            let (_, response) = try await URLSession.shared.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            return status == 200
                ? nil : "\(url.absoluteString) answered \(status): is it a Tally collector (tally collect)?"
        } catch {
            return
                "cannot reach a collector at \(url.absoluteString) (\(error.localizedDescription)); start one with `swift run --traits CLI,Collector tally collect` in Tally's folder"
        }
    }
}
