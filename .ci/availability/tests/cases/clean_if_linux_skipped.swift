// Branches no Apple platform compiles are not checked.
#if os(Linux)
func linuxOnly(timeout: Duration) {}
#endif

#if canImport(Glibc)
func glibcOnly() async throws { try await Task.sleep(for: .seconds(1)) }
#elseif canImport(Darwin)
func darwinOnly() {}
#endif

#if canImport(FoundationNetworking)
func networkingOnly(timeout: Duration) {}
#endif

#if !canImport(Darwin)
func notDarwin(timeout: Duration) {}
#endif
