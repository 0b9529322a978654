// Fuzzes the tracking plan reader: PlanLoader.load(text:file:), YAML and JSON (Yams, PlanDocument,
// PlanReader), as `tally lint` reads a plan.
//
// Properties:
// 1. Loading never crashes.
// 2. Every diagnostic names the file it was given and a location inside the text: line 0 (the whole file,
//    column 0) or a line of the text, and a column within that line (one past its end at most).
// 3. A load with no error diagnostics has a plan; a load with errors has none, and says why
//    (PlanLoadResult.failureKind).
// 4. Loading is deterministic: the same text loads to an equal result. (TallyPlan has no writer of plans,
//    so there is no export to load again.)
// Input that is not UTF-8 is refused before it reaches the reader (PlanLoader.load(contentsOf:)), so the
// target reads only valid UTF-8.
import Foundation
import FuzzDriver
@testable import TallyPlan

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
    let result = PlanLoader.load(text: text, file: "fuzz.yaml")

    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    for diagnostic in result.diagnostics {
        let location = diagnostic.location
        precondition(location.file == "fuzz.yaml", "\(diagnostic)")
        precondition(!diagnostic.message.isEmpty, "\(diagnostic)")
        if location.line == 0 {
            precondition(location.column == 0, "a column without a line: \(diagnostic)")
            continue
        }
        precondition(location.line >= 1 && location.line <= max(lines.count, 1), "line outside the text: \(diagnostic)")
        let line = lines.isEmpty ? "" : lines[location.line - 1]
        let width = max(line.utf8.count, line.unicodeScalars.count)
        precondition(location.column >= 0 && location.column <= width + 1, "column outside line: \(diagnostic)")
    }
    let hasErrors = result.diagnostics.contains { $0.severity == .error }
    precondition(hasErrors == (result.plan == nil), "plan \(result.plan == nil ? "missing" : "present") with errors \(hasErrors)")
    precondition(hasErrors == (result.failureKind != nil), "failureKind \(String(describing: result.failureKind))")

    let again = PlanLoader.load(text: text, file: "fuzz.yaml")
    precondition(again == result, "loading the same text twice differs")
    return 0
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
