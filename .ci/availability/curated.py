"""The curated part of the availability table: what no symbol graph on Linux can tell.

swift-corelibs-foundation carries no Apple availability at all (FoundationEssentials does, and its symbol
graph is read directly), and some Foundation types exist on Linux but not on every Apple platform. Each
entry maps a USR (as `swiftc -dump-ast` prints it in `decl_usr`) to its Apple availability: a version
string, or "unavailable". Entries whose USR names a type also cover its members and initializers (the gate
matches them by USR prefix). Every entry says where its availability comes from.

To add an entry: find the USR in a dump (`swiftc -frontend -typecheck -dump-ast -dump-ast-format json
-primary-file x.swift` on a one-line file that uses the API, then look for `decl_usr` or a `type`), copy the
availability from Apple's SDK header or documentation page, and add a test case under tests/cases/.
"""

UNAVAILABLE = "unavailable"

# Apple platforms where a Foundation API does not exist at all (an app extension would not see it either).
_MAC_ONLY = {"iOS": UNAVAILABLE, "tvOS": UNAVAILABLE, "watchOS": UNAVAILABLE, "visionOS": UNAVAILABLE}

CURATED = {
    # Foundation.Process (NSTask): Foundation/NSTask.h declares the class API_UNAVAILABLE(ios, watchos,
    # tvos), and visionOS inherits iOS's unavailability; developer.apple.com/documentation/foundation/process
    # lists macOS 10.0+ and Mac Catalyst only. Covers `Process()`, `Process.run()`, `terminationStatus`, ...
    "s:10Foundation7ProcessC": {"name": "Foundation.Process", **_MAC_ONLY},
    # Foundation.Host (NSHost): Foundation/NSHost.h, API_UNAVAILABLE(ios, watchos, tvos); macOS only.
    "s:10Foundation4HostC": {"name": "Foundation.Host", **_MAC_ONLY},
    # FileManager.homeDirectoryForCurrentUser and homeDirectory(forUser:): Foundation/NSFileManager.h marks
    # both API_UNAVAILABLE(ios, watchos, tvos) (macOS 10.12+). FoundationEssentials' graph leaves them bare.
    "s:20FoundationEssentials11FileManagerC27homeDirectoryForCurrentUserAA3URLVvp": {
        "name": "FileManager.homeDirectoryForCurrentUser", **_MAC_ONLY},
    "s:20FoundationEssentials11FileManagerC13homeDirectory7forUserAA3URLVSgSS_tF": {
        "name": "FileManager.homeDirectory(forUser:)", **_MAC_ONLY},
    # ProcessInfo.userName / fullUserName: Foundation/NSProcessInfo.h, API_AVAILABLE(macos(10.12))
    # API_UNAVAILABLE(ios, watchos, tvos).
    "s:20FoundationEssentials11ProcessInfoC8userNameSSvp": {"name": "ProcessInfo.userName", **_MAC_ONLY},
    "s:20FoundationEssentials11ProcessInfoC12fullUserNameSSvp": {"name": "ProcessInfo.fullUserName", **_MAC_ONLY},
}

# References the gate ignores: Linux's overload resolution picks a declaration an Apple compiler does not
# pick below its availability, because an older one of the same name and signature exists.
IGNORED = {
    # FixedWidthInteger's `&*` became a protocol requirement in Swift 6 (@available(SwiftStdlib 6.0)); for
    # older targets `a &* b` resolves to the extension operator of the same signature, available everywhere.
    "s:s17FixedWidthIntegerP2amoiyxx_xtFZ": "FixedWidthInteger.&* (requirement since Swift 6)",
}
