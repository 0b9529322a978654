// Fuzzes the tracking plan reader: PlanLoader.load(text:file:), YAML and JSON (Yams, PlanDocument,
// PlanReader), as `tally lint` reads a plan.
//
// Properties:
// 1. Loading never crashes.
// 2. Every diagnostic names the file it was given and a location inside the text: line 0 (the whole file,
//    column 0) or a line of the text, and a column within that line (one past its end at most).
// 3. A load with no error diagnostics has a plan; a load with errors has none, and says why
//    (PlanLoadResult.failureKind).
// (TallyPlan has no writer of plans, so there is no export to load again.)
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

    let lines = yamlLines(text)
    for diagnostic in result.diagnostics {
        let location = diagnostic.location
        precondition(location.file == "fuzz.yaml", "\(diagnostic)")
        precondition(!diagnostic.message.isEmpty, "\(diagnostic)")
        if location.line == 0 {
            precondition(location.column == 0, "a column without a line: \(diagnostic)")
            continue
        }
        precondition(location.line >= 1 && location.line <= lines.count, "line outside the text: \(diagnostic)")
        let width = lines[location.line - 1]
        precondition(location.column >= 0 && location.column <= width + 1, "column outside its line: \(diagnostic)")
    }
    let hasErrors = result.diagnostics.contains { $0.severity == .error }
    precondition(hasErrors == (result.plan == nil), "plan present: \(result.plan != nil), errors: \(hasErrors)")
    precondition(hasErrors == (result.failureKind != nil), "failureKind \(String(describing: result.failureKind))")

    return 0
}

/// The length of each line of `text` in bytes, lines as libyaml counts them: a break is CR LF, CR, LF, NEL, LS
/// or PS. (A column counted in characters is never past a line's length in bytes.)
func yamlLines(_ text: String) -> [Int] {
    var lines = [0]
    var previous: Unicode.Scalar?
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n" where previous == "\r": break
        case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}": lines.append(0)
        default: lines[lines.count - 1] += String(scalar).utf8.count
        }
        previous = scalar
    }
    return lines
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
