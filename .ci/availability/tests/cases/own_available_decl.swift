// Our own @available declarations bind their callers too.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
func newer() {}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct NewerThing { init() {} }

func caller() {
    newer() // expect: M.newer()
    if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
        newer()
        _ = NewerThing()
    }
}

func holder(_ thing: NewerThing) {} // expect: M.NewerThing
