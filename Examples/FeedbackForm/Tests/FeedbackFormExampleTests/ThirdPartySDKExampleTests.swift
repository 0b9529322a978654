import FeedbackFormExample
import FeedbackThirdParty
import Tally
import TallyTesting
import Testing

/// The wrapper over the real (simulated) static SDK, with the defaults the app uses: `ThirdParty`'s static
/// delegate and load call, answering on another thread. These are the only tests that touch the SDK's
/// statics, so they run one at a time.
@Suite(.serialized, .exhaustive)
struct ThirdPartySDKExampleTests {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: ServiceForm.allCases)
    func theSDKDeliversAForm(form: ServiceForm) async throws {
        let load = Self.liveLoad(form)

        let loaded = try await load("nps")

        #expect(loaded.title == "How likely are you to recommend us?")
        #expect(ThirdParty.delegate == nil)
    }

    /// The article's `testWhenLoadFails_itInvokesTheCompletionWithAnError`, with the SDK's own error:
    /// nobody outside the SDK can create a `ThirdPartyError`, yet the caller catches it by its type.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test(arguments: ServiceForm.allCases)
    func theSDKsOwnErrorPassesThroughUnchanged(form: ServiceForm) async throws {
        let load = Self.liveLoad(form)

        let error = await #expect(throws: ThirdPartyError.self) { try await load("survey") }

        #expect(error?.description == "No feedback form with id 'survey'")
        #expect(ThirdParty.delegate == nil)
    }

    /// The default bridge is one per process, because the SDK's delegate is: a load through one form
    /// rejects a load through the other while it is in flight.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func bothFormsShareTheSDKsOneBridge() async throws {
        let answers = Mailbox<@Sendable () -> Void>()
        ThirdParty.scheduleCallback = { answers.send($0) }  // Hold the SDK's answer back.
        defer { ThirdParty.scheduleCallback = ThirdParty.answerOnAnotherThread }
        let service = ThirdPartyFeedbackService()
        let client = FeedbackServiceClient.thirdParty()

        let first = Task { try await service.load("nps") }
        let answer = await answers.next()  // The SDK has the load.
        await #expect(throws: BridgeError.busy) { try await client.load("onboarding") }
        await onAnotherThread(answer)

        #expect(try await first.value.id == "nps")
        #expect(ThirdParty.delegate == nil)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    static func liveLoad(_ form: ServiceForm) -> @Sendable (String) async throws -> FeedbackForm {
        switch form {
        case .protocolForm:
            let service = ThirdPartyFeedbackService()
            return { try await service.load($0) }
        case .structOfClosures:
            return FeedbackServiceClient.thirdParty().load
        }
    }
}
