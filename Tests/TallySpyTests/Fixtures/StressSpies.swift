#if SpyMacro
import TallySpy

// The protocols SpyConcurrencyTests calls from eight threads. Without the SpyMacro trait (ThreadSanitizer's
// step in .ci/run, which leaves swift-syntax out of its instrumented build, and a plain `swift test`) their
// spies come from StressSpies+Expanded.swift: this file as @Spy expands it, which
// SpyMacroExpansionTests.theStressSpiesWithoutTheTraitAreWhatSpyGenerates keeps true.

/// What the stress test calls from eight threads.
@Spy
protocol Ticker: Sendable {
    func tick(thread: Int, index: Int)
    func value(_ index: Int) -> Int
}

/// What the stress test calls from eight threads: a generic member and an inout one.
@Spy
protocol Accumulator: Sendable {
    func add<T: Sendable>(_ value: T, thread: Int)
    func fold(_ total: inout Int, thread: Int)
}
#endif
