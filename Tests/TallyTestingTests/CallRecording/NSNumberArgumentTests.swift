import Foundation
import Tally
import TallyTesting
import Testing

/// What an Objective-C SDK's spy records when it is handed NSNumbers: the types they were created with.
struct NSNumberArgumentTests {
    @Test func nsNumberArgumentsKeepTheirTypes() {
        #expect(CallRecorder.Argument(NSNumber(value: 1)) == 1)
        #expect(CallRecorder.Argument(NSNumber(value: 0)) == 0)
        #expect(CallRecorder.Argument(NSNumber(value: 3.0)) == 3.0)
        #expect(CallRecorder.Argument(NSNumber(value: true)) == true)
    }

    @Test func aDictionaryOfNSNumbersKeepsItsTypes() throws {
        let parameters: [String: Any] = [
            "count": NSNumber(value: 1), "price": NSNumber(value: 3.0), "flag": NSNumber(value: false),
        ]
        #expect(CallRecorder.Argument(parameters) == .value(["count": 1, "price": 3.0, "flag": false]))
        let json = try JSONSerialization.jsonObject(with: Data(#"{"a":1,"b":1.0,"c":true}"#.utf8))
        #expect(CallRecorder.Argument(json) == .value(["a": 1, "b": 1.0, "c": true]))
    }
}
