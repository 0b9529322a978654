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

    /// How many events each request carries.
    public let eventsPerBatch: Int

    /// Batches posted to `path` (`/v1/batch`).
    public init(path: String = "/v1/batch") {
        self.init(format: .segment, path: path)
    }

    /// Batches in `format`, posted to its path (or `path`).
    public init(format: IngestFormat, path: String? = nil) {
        let marker = "9999999999"
        eventsPerBatch = format.eventsPerBatch
        let events = (0..<format.eventsPerBatch).map { index in
            format.event(index, id: "b\(marker)-\(fourDigits(index))")
        }
        let body = format.body(events)
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
        precondition(offsets.count == format.eventsPerBatch)
        template = LoopbackClient.request(
            "POST", path ?? format.path, body: body, headers: ["Content-Type": format.contentType])
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
func fourDigits(_ index: Int) -> String {
    let text = String(index)
    return String(repeating: "0", count: max(0, 4 - text.count)) + text
}
