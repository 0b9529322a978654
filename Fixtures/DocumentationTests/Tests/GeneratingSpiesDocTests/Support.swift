// What "Generating spies with @Spy" leaves implicit: the app's protocols and models.

import Foundation
import TallySpy

/// The app's protocol, which the test target restates.
protocol HippoAnalyticsClientInterface {
    func logEvent(named name: String, properties: [String: Any]?)
}

struct User: Equatable, Sendable {
    let id: Int
    let name: String
}

enum StoreError: Error, Equatable {
    case notFound
}

/// Loads a user and logs it.
final class ProfileModel {
    let users: any UserService
    private(set) var name = ""

    init(users: any UserService) {
        self.users = users
    }

    func load(id: Int) async throws {
        do {
            name = try await users.fetch(id: id).name
            users.log("loaded \(id)")
        } catch {
            users.log("failed \(id): \(error)")
            throw error
        }
    }
}

struct Form: Equatable {
    let id: String
}

@Spy
protocol FormService {
    func load(_ id: String, completion: @escaping (Form) -> Void)
}

/// What a completion handler received.
final class Received: @unchecked Sendable {
    var form: Form?
}

@Spy
protocol FeedbackSDK {
    static func loadForm(_ id: String)
}

/// Loads a form through a static SDK.
struct FeedbackLoader {
    let sdk: any FeedbackSDK.Type

    func load(_ id: String) {
        sdk.loadForm(id)
    }
}

@Spy
protocol AnalyticsSDK: Sendable {
    func logEvent(_ name: String)
    func flush()
}

/// Uploads three events, then flushes, on a thread of its own.
struct Uploader {
    let sdk: any AnalyticsSDK

    func start() {
        let sdk = sdk
        Thread {
            for name in ["a", "b", "c"] { sdk.logEvent(name) }
            sdk.flush()
        }.start()
    }
}
