// The curated table: Foundation APIs that exist on Linux but not on every Apple platform.
import Foundation

func home() -> URL {
    FileManager.default.homeDirectoryForCurrentUser // expect: FileManager.homeDirectoryForCurrentUser
}

func user() -> String {
    ProcessInfo.processInfo.userName // expect: ProcessInfo.userName
}

func host() -> String? {
    Host.current().name // expect: Foundation.Host
}

@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
func macOnly() -> URL {
    FileManager.default.homeDirectoryForCurrentUser
}
