// A declaration in an `#if` branch only some Apple platforms compile does not exist on the others, so code
// every platform compiles cannot use it (the test helpers that start a `Process`, for one).
#if os(macOS) || os(Linux)
func startsAProcess() {}
struct ProcessHelper { func run() {} }
#endif

#if os(Linux)
func linuxOnly() {}
#endif

func everywhere() {
    startsAProcess() // expect: M.startsAProcess()
    linuxOnly() // expect: M.linuxOnly()
}

func holder(_ helper: ProcessHelper) {} // expect: M.ProcessHelper

#if os(macOS) || os(Linux)
func alsoThere(_ helper: ProcessHelper) {
    startsAProcess()
    helper.run()
}
#endif

// With an `#else`, the other platforms may have their own declaration, in code Linux never parses: the
// gate cannot see it, so it assumes it is there.
#if os(macOS) || os(Linux)
func runsSomewhere() {}
#else
func runsSomewhere() {}
#endif

func callsEither() {
    runsSomewhere()
}
