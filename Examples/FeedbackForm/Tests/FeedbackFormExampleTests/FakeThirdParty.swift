import Dispatch
import FeedbackFormExample
import FeedbackThirdParty
import Foundation
import Tally
import TallyTesting

/// A fake of the static `ThirdParty` SDK, one per test so tests run in parallel: the wrapper is given
/// closures over it in place of `ThirdParty.loadFeedbackForm` and `ThirdParty.delegate` (the article's
/// injected seams). It reports each load through ``loads``, so a test awaits "the load has started"
/// instead of guessing when another task runs, and answers only when the test says so, on another thread,
/// as the SDK does.
///
/// Hand-written on purpose, and not by `@Spy`: `ThirdParty` is a type with static members, not a protocol
/// (`@Spy` on anything but a protocol says "@Spy can only be attached to a protocol"), and this fake has
/// behaviour a spy does not (it keeps the delegate and answers through it on another thread).
final class FakeThirdParty: @unchecked Sendable {
    private let lock = NSLock()
    private var currentDelegate: (any ThirdPartyDelegate)?
    private var delegateChanges: [Bool] = []
    private let requests = Mailbox<String>()
    /// Every load, read whole by ``loadedIDs``: the tests compare the full list, so exhaustive mode has
    /// nothing to add and this recorder opts out of it.
    private let loaded: CallRecorder = {
        let recorder = CallRecorder()
        recorder.isExhaustive = false
        return recorder
    }()

    /// The delegate the wrapper set, as the SDK would read it.
    var delegate: (any ThirdPartyDelegate)? {
        get { lock.withLock { currentDelegate } }
        set {
            lock.withLock {
                currentDelegate = newValue
                delegateChanges.append(newValue != nil)
            }
        }
    }

    /// Each time the delegate was set (true) or cleared (false), in order.
    var delegateHistory: [Bool] { lock.withLock { delegateChanges } }

    /// `ThirdParty.loadFeedbackForm(_:)`.
    func loadFeedbackForm(_ id: String) {
        loaded.record(arguments: id)
        requests.send(id)
    }

    /// Every id loaded, in order.
    var loadedIDs: [String] { loaded.all.compactMap { $0.arguments.first?.value?.stringValue } }

    /// Waits until the wrapper has started its next load, and returns the id.
    func nextLoad() async -> String { await requests.next() }

    /// Answers with `form` through the current delegate, from another thread, and returns once the
    /// delegate has been called.
    func deliver(_ form: FeedbackForm) async {
        let delegate = SendableBox(self.delegate)
        await onAnotherThread { delegate.value?.formDidload(form) }
    }

    /// The wrapper as the protocol form, over this fake.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func service(bridge: SDKBridge<FeedbackForm>, clock: any Clock<Duration> = ContinuousClock())
        -> ThirdPartyFeedbackService
    {
        ThirdPartyFeedbackService(
            loadFeedback: { self.loadFeedbackForm($0) }, setDelegate: { self.delegate = $0 }, bridge: bridge,
            clock: clock)
    }

    /// The wrapper as the struct of closures, over this fake.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func client(bridge: SDKBridge<FeedbackForm>, clock: any Clock<Duration> = ContinuousClock())
        -> FeedbackServiceClient
    {
        FeedbackServiceClient.thirdParty(
            loadFeedback: { self.loadFeedbackForm($0) }, setDelegate: { self.delegate = $0 }, bridge: bridge,
            clock: clock)
    }
}

/// The two forms of the wrapper from the article, so every test runs against both.
enum ServiceForm: String, CaseIterable, Sendable {
    /// `ThirdPartyFeedbackService`, the protocol form.
    case protocolForm = "ThirdPartyFeedbackService"
    /// `FeedbackServiceClient.thirdParty(...)`, the struct of closures.
    case structOfClosures = "FeedbackServiceClient"

    /// The form's `load`, over `sdk`, with a bridge of the test's own.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func load(
        over sdk: FakeThirdParty, bridge: SDKBridge<FeedbackForm>, clock: any Clock<Duration> = ContinuousClock()
    ) -> @Sendable (String) async throws -> FeedbackForm {
        switch self {
        case .protocolForm:
            let service = sdk.service(bridge: bridge, clock: clock)
            return { try await service.load($0) }
        case .structOfClosures:
            return sdk.client(bridge: bridge, clock: clock).load
        }
    }
}

/// A queue with one consumer: `send` from any thread, `next()` waits for the next value without polling.
final class Mailbox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []
    private var waiter: CheckedContinuation<Value, Never>?

    func send(_ value: Value) {
        let waiter: CheckedContinuation<Value, Never>? = lock.withLock {
            guard let waiter = self.waiter else {
                values.append(value)
                return nil
            }
            self.waiter = nil
            return waiter
        }
        waiter?.resume(returning: value)
    }

    func next() async -> Value {
        await withCheckedContinuation { continuation in
            let value: Value? = lock.withLock {
                precondition(waiter == nil, "Mailbox has one consumer")
                if !values.isEmpty { return values.removeFirst() }
                waiter = continuation
                return nil
            }
            if let value { continuation.resume(returning: value) }
        }
    }
}

/// Carries a value the SDK hands between threads, as the real SDK does with its delegate.
struct SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Runs `body` on a global-queue thread and returns when it has.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            body()
            continuation.resume()
        }
    }
}

extension FeedbackForm {
    static let nps = FeedbackForm(id: "nps", title: "How likely are you to recommend us?", questions: ["Score"])
}
