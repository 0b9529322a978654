#if SpyMacro
import Foundation
import TallySpy
import Testing

/// Static requirements record into the spy the running test installed, and only there.
@Suite struct SpyStaticCallTests {
    @Test func concurrentTestsEachSeeOnlyTheirOwnStaticCalls() async {
        let first = FeedbackSDKSpy()
        let second = FeedbackSDKSpy()
        await withTaskGroup(of: Void.self) { group in
            for (spy, name) in [(first, "first"), (second, "second")] {
                group.addTask {
                    await spy.withStaticCalls {
                        for index in 0..<500 {
                            FeedbackSDKSpy.loadForm("\(name)-\(index)")
                            await Task.yield()
                        }
                    }
                }
            }
        }
        #expect(first.calls.count == 500)
        #expect(second.calls.count == 500)
        #expect(first.calls.allSatisfy { $0.description.hasPrefix("loadForm(\"first-") })
        #expect(second.calls.allSatisfy { $0.description.hasPrefix("loadForm(\"second-") })
    }

    @Test func spiesOfDifferentTypesAreInstalledTogether() {
        let sdk = FeedbackSDKSpy()
        let users = UserServiceSpy()
        sdk.withStaticCalls {
            users.withStaticCalls {
                FeedbackSDKSpy.loadForm("a")
                UserServiceSpy.configure(key: "b")
            }
        }
        sdk.expectCalled(.loadForm("a"))
        sdk.expectNothingElse()
        users.expectCalled(.configure(key: "b"))
        users.expectNothingElse()
    }

    @Test func childTasksAndUnstructuredTasksSeeTheInstalledSpy() async {
        let sdk = FeedbackSDKSpy()
        await sdk.withStaticCalls {
            await Task { FeedbackSDKSpy.loadForm("task") }.value
            async let child: Void = FeedbackSDKSpy.loadForm("child")
            await child
        }
        sdk.expectCount(2, of: .loadForm)
    }

    @Test func aStaticCallWithNoSpyInstalledIsReportedAndNotRecorded() {
        let sdk = FeedbackSDKSpy()
        withKnownIssue {
            FeedbackSDKSpy.loadForm("outside")
        } matching: { issue in
            issue.description.contains(
                "Static call to FeedbackSDKSpy.loadForm(_:) with no FeedbackSDKSpy installed: the call was not recorded."
            )
        }
        sdk.expectNothingElse()
    }

    @Test func anInitializerOutsideWithStaticCallsRecordsIntoTheNewSpy() {
        let made = FeedbackSDKSpy(apiKey: "key")
        made.expectCalled(.initializer(apiKey: "key"))
    }
}
#endif
