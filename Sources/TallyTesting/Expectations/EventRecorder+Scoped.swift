import Tally

extension EventRecorder {
    /// The events recorded while `action` runs.
    ///
    /// ```swift
    /// let events = spy.events(during: { model.login() })
    /// ```
    public func events(during action: () throws -> Void) rethrows -> [Event] {
        let start = log.count
        try action()
        return log.events(from: start)
    }

    /// The events recorded while `action` runs. For a client and an in-memory destination, end `action`
    /// with `await analytics.flush()` so its events have arrived.
    public func events(during action: () async throws -> Void) async rethrows -> [Event] {
        let start = log.count
        try await action()
        return log.events(from: start)
    }

    /// Runs `action`, then checks `expectations` against only the events recorded while it ran: the
    /// seed's `verifyAnalytics(event:action:when:)`, for any expectation. Each expectation accounts for
    /// what it does without `when:`, among those events.
    ///
    /// ```swift
    /// spy.expect(when: { model.login() }) { spy in
    ///     spy.expectTracked(Event("login_tapped", ["action": "tap"]))
    ///     spy.expectNothingElse()
    /// }
    /// ```
    public func expect(when action: () throws -> Void, _ expectations: (Self) throws -> Void) rethrows {
        let start = log.count
        try action()
        try ExpectationScope.$start.withValue(start) { try expectations(self) }
    }

    /// Async form of ``expect(when:_:)-(()->Void,_)``, on the caller's actor.
    public func expect(
        isolation: isolated (any Actor)? = #isolation, when action: () async throws -> Void,
        _ expectations: (Self) throws -> Void
    ) async rethrows {
        let start = log.count
        try await action()
        try ExpectationScope.$start.withValue(start) { try expectations(self) }
    }

    /// Runs `action` and expects it to track `event`; events recorded before do not count. Accounts for
    /// the one event it matched.
    ///
    /// ```swift
    /// spy.expectTracked(.screen("Login"), when: { model.wakeup() })
    /// ```
    @discardableResult
    public func expectTracked(
        _ event: Event, when action: () throws -> Void, fileID: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) rethrows -> Bool {
        try expectTracked(.event(event), when: action, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Runs `action` and expects it to track an event matching `matcher`; events recorded before do not
    /// count.
    @discardableResult
    public func expectTracked(
        _ matcher: EventMatcher, when action: () throws -> Void, fileID: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) rethrows -> Bool {
        let start = log.count
        try action()
        return ExpectationScope.$start.withValue(start) {
            expectTracked(matcher, fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }

    /// Runs `action` and expects it not to track an event matching `matcher`.
    ///
    /// ```swift
    /// spy.expectNotTracked(.named("menu_item_ordered"), when: { model.removeFromOrder() })
    /// ```
    @discardableResult
    public func expectNotTracked(
        _ matcher: EventMatcher, when action: () throws -> Void, fileID: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) rethrows -> Bool {
        let start = log.count
        try action()
        return ExpectationScope.$start.withValue(start) {
            expectNotTracked(matcher, fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }

    // MARK: Async actions

    /// Runs `action`, which may suspend, and expects it to track `event`; events recorded before do not
    /// count.
    ///
    /// It runs on the caller's actor, so a nonisolated test can drive a `@MainActor` view model:
    ///
    /// ```swift
    /// @Test func loginTracksTheTap() async {
    ///     let spy = AnalyticsSpy()
    ///     let model = await LoginViewModel(analytics: spy)  // a @MainActor class
    ///     await spy.expectTracked(.loginTapped, when: { await model.login() })
    /// }
    /// ```
    @discardableResult
    public func expectTracked(
        _ event: Event, isolation: isolated (any Actor)? = #isolation, when action: () async throws -> Void,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) async rethrows -> Bool {
        let start = log.count
        try await action()
        return ExpectationScope.$start.withValue(start) {
            expectTracked(.event(event), fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }

    /// Runs `action`, which may suspend, and expects it to track an event matching `matcher`; events
    /// recorded before do not count. Runs on the caller's actor, like
    /// ``expectTracked(_:isolation:when:fileID:filePath:line:column:)-(Event,_,_,_,_,_,_)``.
    @discardableResult
    public func expectTracked(
        _ matcher: EventMatcher, isolation: isolated (any Actor)? = #isolation,
        when action: () async throws -> Void, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async rethrows -> Bool {
        let start = log.count
        try await action()
        return ExpectationScope.$start.withValue(start) {
            expectTracked(matcher, fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }

    /// Runs `action`, which may suspend, and expects it not to track an event matching `matcher`. Runs on
    /// the caller's actor.
    @discardableResult
    public func expectNotTracked(
        _ matcher: EventMatcher, isolation: isolated (any Actor)? = #isolation,
        when action: () async throws -> Void, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async rethrows -> Bool {
        let start = log.count
        try await action()
        return ExpectationScope.$start.withValue(start) {
            expectNotTracked(matcher, fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }
}
