import Foundation
import Shop
import Tally

// The app: `shop-app view:ID | checkout:TOTAL ...` tracks those events into the collector that
// TALLY_COLLECTOR names, tagged with TALLY_SESSION, as an app launched by a UI test does.
guard let collector = try RecordingDestination.collectorFromEnvironment() else {
    FileHandle.standardError.write(Data("shop-app: set TALLY_COLLECTOR\n".utf8))
    exit(64)
}
let analytics = AnalyticsClient(destinations: [collector])
let shop = ShopModel(analytics: analytics)
for argument in CommandLine.arguments.dropFirst() {
    let parts = argument.split(separator: ":", maxSplits: 1).map(String.init)
    switch (parts.first, parts.count == 2 ? parts[1] : nil) {
    case ("view", let id?): shop.view(product: id)
    case ("checkout", let total?): shop.checkout(total: Double(total) ?? 0)
    default:
        FileHandle.standardError.write(Data("shop-app: unknown argument \(argument)\n".utf8))
        exit(64)
    }
}
await analytics.shutdown()
