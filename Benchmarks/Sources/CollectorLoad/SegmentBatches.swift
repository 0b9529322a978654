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
    /// For a base64 body: the JSON it encodes, where its batch numbers start, and where the encoded data
    /// starts in `template`; the groups of four characters that hold a batch number are encoded again.
    private var json: [UInt8] = []
    private var jsonOffsets: [Int] = []
    private var dataStart: Int?

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
        template = LoopbackClient.request(
            "POST", path ?? format.path, body: body, headers: ["Content-Type": format.contentType])
        let headerLength = template.count - body.count
        if format == .mixpanelBase64 {
            let json = format.base64JSON(events)
            let offsets = Self.offsets(of: marker, in: json)
            precondition(offsets.count == format.eventsPerBatch)
            self.json = json
            jsonOffsets = offsets
            dataStart = headerLength + IngestFormat.base64DataOffset
            digitOffsets = []
        } else {
            let offsets = Self.offsets(of: marker, in: body)
            precondition(offsets.count == format.eventsPerBatch)
            digitOffsets = offsets.map { $0 + headerLength }
        }
    }

    private static func offsets(of marker: String, in body: [UInt8]) -> [Int] {
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
        return offsets
    }

    /// The request bytes of batch number `number`.
    public mutating func request(_ number: Int) -> [UInt8] {
        if let dataStart {
            var digits = number
            for place in (0..<10).reversed() {
                let digit = UInt8(ascii: "0") + UInt8(digits % 10)
                digits /= 10
                for offset in jsonOffsets { json[offset + place] = digit }
            }
            for offset in jsonOffsets {
                var group = offset / 3 * 3
                while group < offset + 10 {
                    let characters = IngestFormat.groupBase64(json, at: group)
                    let at = dataStart + group / 3 * 4
                    template.replaceSubrange(at..<(at + characters.count), with: characters)
                    group += 3
                }
            }
            return template
        }
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
