/// Segment batches as analytics-python sends them: 100 track events of about 350 bytes each, every event
/// with its own message id, so the collector's retry check never drops one.
///
/// One template is encoded once; each ``request(_:)`` writes the batch number into the message ids in
/// place, which costs the client a few hundred byte writes instead of an encoding.
public struct SegmentBatches {
    public static let batchSize = 100
    private var template: [UInt8]
    /// Where each message id's 10-digit batch number starts.
    private let digitOffsets: [Int]

    /// Batches posted to `path` (`/v1/batch`).
    public init(path: String = "/v1/batch") {
        let marker = "9999999999"
        let events = (0..<Self.batchSize).map { index in
            """
            {"type":"track","event":"Order Completed","userId":"user-\(index % 7)","anonymousId":"5f1c3b1e-8a51-4b7a-9d43-\(fourDigits(index))",\
            "messageId":"b\(marker)-\(fourDigits(index))","timestamp":"2026-11-24T10:00:00.000Z",\
            "properties":{"order_id":"o-\(index)","total":29.95,"currency":"EUR","items":3,"coupon":null},\
            "context":{"library":{"name":"analytics-python","version":"2.4.0"},"app":{"version":"3.1.0"}}}
            """
        }
        let body = Array(#"{"batch":[\#(events.joined(separator: ","))],"sentAt":"2026-11-24T10:00:00.100Z"}"#.utf8)
        var offsets: [Int] = []
        let needle = Array(marker.utf8)
        var index = 0
        while index + needle.count <= body.count {
            if body[index] == needle[0], body[index..<(index + needle.count)].elementsEqual(needle) {
                offsets.append(index)
                index += needle.count
            } else {
                index += 1
            }
        }
        precondition(offsets.count == Self.batchSize)
        template = LoopbackClient.request("POST", path, body: body, headers: ["Content-Type": "application/json"])
        let headerLength = template.count - body.count
        digitOffsets = offsets.map { $0 + headerLength }
    }

    /// The request bytes of batch number `number`.
    public mutating func request(_ number: Int) -> [UInt8] {
        var digits = number
        for place in (0..<10).reversed() {
            let digit = UInt8(ascii: "0") + UInt8(digits % 10)
            digits /= 10
            for offset in digitOffsets { template[offset + place] = digit }
        }
        return template
    }

    /// The body's size in bytes.
    public var bodyBytes: Int { template.count - (template.firstIndex(of: UInt8(ascii: "{")) ?? 0) }
}

/// `index` as four digits.
private func fourDigits(_ index: Int) -> String {
    let text = String(index)
    return String(repeating: "0", count: max(0, 4 - text.count)) + text
}
