import Foundation
import Tally
import TallyTesting
import Testing

struct ProcessorTests {
    let envelope = Envelope(
        event: Event("menu_item_ordered", ["item_name": "Pizza"]), messageId: MessageID(prefix: 1, sequence: 1),
        timestamp: Date(timeIntervalSince1970: 0), anonymousId: "anon")

    @Test func contextAddsFactsWithoutOverwriting() throws {
        var existing = envelope
        existing.context = ["app_version": "1.0"]
        let processor: any Processor = .context(["app_version": "2.0", "locale": "en"])
        #expect(processor.process(envelope)?.context == ["app_version": "2.0", "locale": "en"])
        #expect(processor.process(existing)?.context == ["app_version": "1.0", "locale": "en"])
        let library = ContextProcessor.library.values
        #expect(library["library"]?.objectValue?["name"] == "tally")
        #expect(library["os"]?.objectValue?["name"] == .string(TallyLibrary.operatingSystemName))
    }

    @Test func superPropertiesFillGapsOnTrackAndScreenOnly() throws {
        let processor: any Processor = .superProperties(["item_name": "Default", "app": "menu"])
        #expect(processor.process(envelope)?.event.properties == ["item_name": "Pizza", "app": "menu"])
        var identify = envelope
        identify.event = .identify(userId: "u1", traits: ["plan": "pro"])
        #expect(processor.process(identify)?.event.properties == ["plan": "pro"])
    }

    @Test func filtersKeepOnlyWhatTheRuleAccepts() {
        var screen = envelope
        screen.event = .screen("Login")
        let byKind: any Processor = .filter(kinds: [.screen])
        #expect(byKind.process(envelope) == nil)
        #expect(byKind.process(screen) != nil)
        let byName: any Processor = .filter(names: ["menu_item_ordered"])
        #expect(byName.process(envelope) != nil)
        #expect(byName.process(screen) == nil)
        let excluding: any Processor = .filter(excludingNames: ["menu_item_ordered"])
        #expect(excluding.process(envelope) == nil)
        let predicate: any Processor = .filter(named: "anonymous_only") { $0.userId == nil }
        #expect(predicate.process(envelope) != nil)
        #expect(predicate.name == "anonymous_only")
    }

    @Test func dropsByProcessorsAreCountedByName() async {
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(
            processors: [
                .filter(excludingNames: ["debug"]), .filter(named: "no_screens") { $0.event.kind != .screen },
            ],
            destinations: [memory])
        analytics.track("debug")
        analytics.screen("Home")
        analytics.track("kept")
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["kept"])
        #expect(
            analytics.statistics.dropped == [.filtered(by: "filter_names"): 1, .filtered(by: "no_screens"): 1])
    }

    @Test func redactionByKeyReachesNestedValuesAndContext() throws {
        var input = envelope
        input.event.properties = ["Email": "a@b.co", "address": ["email": "c@d.co", "city": "Oslo"], "n": 1]
        input.context = ["email": "e@f.co"]
        let output = try #require(RedactionProcessor(keys: ["email"]).process(input))
        #expect(
            output.event.properties == [
                "Email": "[redacted]", "address": ["email": "[redacted]", "city": "Oslo"], "n": 1,
            ])
        #expect(output.context == ["email": "[redacted]"])
    }

    @Test func redactionByPatternRewritesMatchingText() throws {
        var input = envelope
        input.event.properties = ["note": "write to Ann@Example.com or bob@example.org", "list": ["x@y.io"]]
        let processor = try RedactionProcessor(
            pattern: #"[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}"#, replacement: "<email>")
        let output = try #require(processor.process(input))
        #expect(output.event.properties == ["note": "write to <email> or <email>", "list": ["<email>"]])
    }

    @Test func anInvalidRedactionPatternThrows() {
        #expect(throws: (any Error).self) { try RedactionProcessor(pattern: "([") }
    }

    @Test func samplingIsDeterministicForASeed() {
        func envelope(user: String, sequence: UInt64) -> Envelope {
            Envelope(
                event: Event("e"), messageId: MessageID(prefix: .random(in: 0...UInt64.max), sequence: sequence),
                timestamp: Date(), userId: user, anonymousId: "anon")
        }
        let sampler = SamplingProcessor(rate: 0.25, seed: 42)
        let users = (0..<4000).map { "user-\($0)" }
        let kept = users.filter { sampler.keeps(envelope(user: $0, sequence: 1)) }
        // Same seed, same decisions, whatever else differs.
        #expect(kept == users.filter { SamplingProcessor(rate: 0.25, seed: 42).keeps(envelope(user: $0, sequence: 9)) })
        // Roughly the rate (4000 users: 1000 expected, a 5-sigma band is about ±140).
        #expect((860...1140).contains(kept.count), "\(kept.count)")
        // Another seed picks other users.
        #expect(kept != users.filter { SamplingProcessor(rate: 0.25, seed: 43).keeps(envelope(user: $0, sequence: 1)) })
        // By event: decided on the sequence number.
        let byEvent = SamplingProcessor(rate: 0.5, seed: 7, by: .event)
        let decisions = (1...100).map { byEvent.keeps(envelope(user: "u", sequence: $0)) }
        #expect(decisions == (1...100).map { byEvent.keeps(envelope(user: "other", sequence: $0)) })
        #expect(SamplingProcessor(rate: 0, seed: 1).keeps(envelope(user: "u", sequence: 1)) == false)
        #expect(SamplingProcessor(rate: 1, seed: 1).keeps(envelope(user: "u", sequence: 1)))
        #expect(SamplingProcessor(rate: .nan, seed: 1).rate == 0)
    }

    @Test func routingSendsMatchingEventsOnlyToTheNamedDestinations() async {
        let firebase = InMemoryDestination(name: "firebase")
        let console = InMemoryDestination(name: "console")
        let analytics = AnalyticsClient(
            processors: [.route(names: ["purchase"], to: ["firebase"]), .route(kinds: [.identify], to: ["console"])],
            destinations: [firebase, console])
        analytics.track("purchase")
        analytics.track("browse")
        analytics.identify(userId: "u1")
        await analytics.flush()
        #expect(firebase.events.map(\.name) == ["purchase", "browse"])
        #expect(console.events == [Event("browse"), .identify(userId: "u1")])
        let statistics = analytics.statistics
        #expect(statistics.destinations["firebase"]?.routedAway == 1)
        #expect(statistics.destinations["console"]?.routedAway == 1)
        #expect(statistics.totalDropped == 0)
    }

    @Test func overlappingRoutesIntersect() {
        let first: any Processor = .route(to: ["a", "b"]) { _ in true }
        let second: any Processor = .route(to: ["b", "c"]) { _ in true }
        #expect(first.process(envelope).flatMap { second.process($0) }?.destinations == ["b"])
    }

    @Test func processorsRunInOrderOnTheWorker() async {
        struct Append: Processor {
            let suffix: String
            func process(_ envelope: inout Envelope, context: ProcessingContext) -> ProcessingDecision {
                envelope.event.name += suffix
                return .keep
            }
        }
        let memory = InMemoryDestination()
        let analytics = AnalyticsClient(
            processors: [Append(suffix: "_a"), Append(suffix: "_b")], destinations: [memory])
        analytics.track("e")
        await analytics.flush()
        #expect(memory.events.map(\.name) == ["e_a_b"])
    }
}
