// What TallySpy's doc-comment examples leave implicit: the app's models and the code under test.

import Foundation
import TallySpy

struct User: Equatable, Sendable {
    let id: Int
    let name: String
}

/// Loads a user and logs it.
final class ProfileModel {
    let users: any UserService

    init(users: any UserService) {
        self.users = users
    }

    func load(id: Int) async throws {
        _ = try await users.fetch(id: id)
        users.log("loaded")
    }
}

struct Form: Equatable, Sendable {
    let id: String
}

/// Loads a form through a static SDK.
struct FeedbackLoader {
    let sdk: any FeedbackSDK.Type

    func load(_ id: String) {
        sdk.loadForm(id)
    }
}

/// Loads a form through a static SDK, from async code.
struct AsyncFeedbackLoader {
    let sdk: any FeedbackSDK.Type

    func load(_ id: String) async throws {
        await Task.yield()
        sdk.loadForm(id)
    }
}

/// A gate a stub waits at; open from the start here.
actor Gate {
    func wait() async {}
}

@Spy
protocol MapViewProvidable: AnyObject {
    var delegate: (any AnyObject)? { get set }
}

@Spy
protocol AnalyticsSDK: Sendable {
    func logEvent(_ name: String)
}

/// Logs three events on a thread of its own.
struct Uploader {
    let sdk: any AnalyticsSDK

    func start() {
        let sdk = sdk
        Thread {
            for name in ["a", "b", "c"] { sdk.logEvent(name) }
        }.start()
    }
}
