// A stand-in for a dependency that declares its availability with an availability macro (the test
// compiles it with `-enable-experimental-feature AvailabilityMacro=...`), as Hummingbird does.
@available(TinyAvailability 1.0, *)
public struct Router {
    public init() {}
}

public struct Plain {
    public init() {}
    public var value: Int { 0 }
}
