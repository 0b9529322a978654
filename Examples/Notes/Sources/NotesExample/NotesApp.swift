import NotesFirebaseSDK
import NotesGoogleSDK
import Swinject
import Tally

/// The Notes app's composition root: the dependency-injection container of the article's
/// `setupDependencies()`, and the screens it builds.
///
/// The article registers the analytics service with the container like this:
///
/// ```swift
/// Container.shared.register(AnalyticsService.self) { _ in
///     let adapter = GoogleSDK(apiKey: Configuration.Google.apiKey, clientSecret: Configuration.Google.clientSecret)
///     return GoogleAnalyticsService(adapter: adapter)
/// }
/// ```
///
/// ``init(makeAdapter:makeFirebase:destinations:)`` does the same with a Swinject `Container`, in the
/// container scope so the whole app shares one service (and one analytics client). The adapter is a
/// parameter so tests can register a spy in the SDK's place and check what the registered service sends;
/// the app passes nothing and gets the Google SDK.
///
/// The service also sends every event to Firebase, through Tally's `FirebaseDestination`, which makes each
/// event fit Firebase's limits (a search term is cut to 100 characters) and reports what it changed as a
/// problem in ``statistics``.
///
/// The container is not `Sendable`, so it is kept inside this value rather than in a global: create the
/// app once at start, on one task, and hand the screens it builds to the code that shows them.
public struct NotesApp {
    /// The app's configuration, as in the article.
    public enum Configuration {
        /// The Google project the app reports to.
        public enum Google {
            /// The project's API key (a placeholder: the SDK is simulated).
            public static let apiKey = "notes-example-api-key"
            /// The project's client secret (a placeholder).
            public static let clientSecret = "notes-example-client-secret"
        }
    }

    private let container = Container()

    /// Registers the app's dependencies.
    ///
    /// - Parameters:
    ///   - makeAdapter: makes the adapter the analytics service calls; by default the Google SDK
    ///     configured with ``Configuration/Google``. It is called once, on first use.
    ///   - makeFirebase: makes the Firebase destination; by default one calling Firebase's `Analytics`
    ///     class methods. Tests pass `FirebaseDestination(adapter:)` with a spy. Called once, on first use.
    ///   - destinations: more destinations for the service, such as a console in debug builds.
    public init(
        makeAdapter: @escaping @Sendable () -> any GoogleAnalyticsAdapter = NotesApp.googleSDK,
        makeFirebase: @escaping @Sendable () -> FirebaseDestination = NotesApp.firebaseSDK,
        destinations: [any Destination] = []
    ) {
        container.register(GoogleAnalyticsService.self) { _ in
            GoogleAnalyticsService(adapter: makeAdapter(), destinations: [makeFirebase()] + destinations)
        }
        .inObjectScope(.container)
        container.register((any AnalyticsService).self) { resolver in
            resolver.resolve(GoogleAnalyticsService.self)!
        }
        container.register(NotesListViewModel.self) { resolver in
            NotesListViewModel(analyticsService: resolver.resolve((any AnalyticsService).self)!)
        }
    }

    /// The Google SDK as the app configures it.
    @Sendable public static func googleSDK() -> any GoogleAnalyticsAdapter {
        GoogleSDK(apiKey: Configuration.Google.apiKey, clientSecret: Configuration.Google.clientSecret)
    }

    /// Firebase, as the app configures it: its `Analytics` class methods, within Firebase's documented
    /// limits.
    @Sendable public static func firebaseSDK() -> FirebaseDestination {
        FirebaseDestination(sdk: Analytics.self)
    }

    /// What the service's client counted, including the problems Firebase's limits reported (see
    /// ``GoogleAnalyticsService/statistics``).
    public var statistics: Statistics {
        guard let service = container.resolve(GoogleAnalyticsService.self) else {
            preconditionFailure("NotesApp registers a GoogleAnalyticsService in init")
        }
        return service.statistics
    }

    /// The registered analytics service: the same instance every time.
    public var analyticsService: any AnalyticsService {
        guard let service = container.resolve((any AnalyticsService).self) else {
            preconditionFailure("NotesApp registers an AnalyticsService in init")
        }
        return service
    }

    /// Returns when every event sent so far has reached the SDK (see ``GoogleAnalyticsService/flush()``).
    public func flush() async {
        await container.resolve(GoogleAnalyticsService.self)?.flush()
    }

    /// A new notes list, wired by the container.
    public func makeNotesList() -> NotesListViewModel {
        guard let list = container.resolve(NotesListViewModel.self) else {
            preconditionFailure("NotesApp registers NotesListViewModel in init")
        }
        return list
    }
}
