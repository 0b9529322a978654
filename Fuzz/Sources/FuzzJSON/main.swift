// Fuzzes Tally's JSON reader (JSONReader, behind PropertyValue(json:)) and writer (JSONWriter).
//
// Properties:
// 1. Reading never crashes: any input gives a value or a JSONError whose offset lies within the input.
// 2. A value the reader accepts is written (JSONWriter) and read again to the same value, and the writer's
//    text is read to itself once more (writing is a fixed point); nothing is cut for depth, since the reader
//    refuses what the writer would cut.
// 3. The reader and Foundation's JSONSerialization (.fragmentsAllowed: a top-level scalar is JSON, RFC 8259)
//    agree on what is valid JSON, except where Tally documents a rule of its own:
//    - nesting deeper than PropertyValue.maximumDepth (64) is refused (PropertyValue.init(json:));
//    - strings must be valid UTF-8, and an escaped lone surrogate (`\ud800`) is no scalar, so it is
//      refused (PropertyValue.init(json:): "no replacement characters are made up");
//    - keys that differ only in Unicode normalization are refused (JSONReader.checkSameKey);
//    - a number beyond Int and Double is kept as a BigNumber (PropertyValue.init(json:)), where
//      JSONSerialization may refuse it;
//    - the input is UTF-8 (PropertyValue.init(jsonBytes:)): JSONSerialization also reads UTF-16 and UTF-32,
//      and skips a byte order mark, so inputs with a NUL byte or a BOM are not compared.
//    And where JSONSerialization reads more than RFC 8259's grammar, Tally's refusal is right:
//    - a trailing comma in an array or object (`[1,]`, `{"a":1,}`), which the grammar (RFC 8259 sections
//      4 and 5) does not allow, and swift-corelibs-foundation's JSONSerialization reads.
import Foundation
import FuzzDriver
@testable import Tally

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let value: PropertyValue
    do {
        value = try JSONReader.read(bytes)
    } catch {
        precondition(error.offset >= 0 && error.offset <= size, "offset \(error.offset) outside the input: \(error)")
        precondition(!error.message.isEmpty)
        if foundationAccepts(bytes) && !documentedRefusal(error, bytes) {
            fatalError("Tally refuses what JSONSerialization reads: \(error)")
        }
        return 0
    }
    // Round trip.
    var writer = JSONWriter()
    writer.write(value)
    precondition(writer.cutContainers == 0, "the writer cut a container the reader accepted")
    let written = writer.bytes
    let again: PropertyValue
    do {
        again = try written.withUnsafeBufferPointer { try JSONReader.read($0) }
    } catch {
        fatalError("the writer's text does not read: \(error): \(writer.string)")
    }
    precondition(again == value, "written and read again, \(value) became \(again): \(writer.string)")
    var rewriter = JSONWriter()
    rewriter.write(again)
    precondition(rewriter.bytes == written, "writing is not a fixed point: \(writer.string) then \(rewriter.string)")
    // Agreement with Foundation.
    if !containsBigNumber(value) && !isOtherEncoding(bytes) && !foundationAccepts(bytes) {
        fatalError("Tally reads what JSONSerialization refuses: \(value)")
    }
    return 0
}

private func foundationAccepts(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let data = Data(bytes)
    return (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
}

/// Input JSONSerialization reads in another encoding than UTF-8, or with a byte order mark.
private func isOtherEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes.contains(0) || bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFE, 0xFF])
        || bytes.starts(with: [0xFF, 0xFE])
}

/// Whether Tally's refusal of input JSONSerialization reads is one of its documented rules.
private func documentedRefusal(_ error: JSONError, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    if isOtherEncoding(bytes) { return true }
    // A trailing comma: Tally stops at the closing bracket, after a comma and whitespace.
    if error.offset < bytes.count, bytes[error.offset] == UInt8(ascii: "]") || bytes[error.offset] == UInt8(ascii: "}"),
        bytes[..<error.offset].last(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: ",")
    {
        return true
    }
    let message = error.message
    return message.hasPrefix("Nesting deeper than") || message.hasPrefix("Unpaired surrogate")
        || message.contains("differ only in Unicode normalization") || message.hasPrefix("Invalid UTF-8")
}

private func containsBigNumber(_ value: PropertyValue) -> Bool {
    switch value {
    case .bigNumber: true
    case .array(let elements): elements.contains(where: containsBigNumber)
    case .object(let members): members.values.contains(where: containsBigNumber)
    default: false
    }
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
