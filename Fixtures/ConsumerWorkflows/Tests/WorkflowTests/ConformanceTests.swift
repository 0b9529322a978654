import Shop
import TallyTesting
import Testing

/// `DestinationConformance` on the app's own destination, in exhaustive mode, as the docs recommend for
/// every test.
@Suite(.exhaustive) struct ConformanceTests {
    @Test func theLineDestinationConforms() async {
        let log = LineLog()
        let broken = await DestinationConformance(
            makeDestination: { LineDestination(log: log) },
            receivedCount: { $0.log.lines.count },
            reset: { $0.log.clear() }
        ).run()
        #expect(broken == 0)
    }
}
