import CustomDump
import Tally

/// The text of the issues a recorder reports, and how it finds the closest recorded call.
extension CallRecorder {
    /// At most this many calls are listed in a message; the rest are counted.
    static let listingLimit = 50

    /// `Recorded calls (2):` and one line per call, or `Recorded calls: none.`
    package static func listing(_ calls: [Call]) -> String {
        guard !calls.isEmpty else { return "Recorded calls: none." }
        var lines = ["Recorded calls (\(calls.count)):"]
        let shown = calls.count <= listingLimit ? calls.indices : calls.indices.prefix(listingLimit)
        lines += shown.map { "  [\($0)] \(calls[$0])" }
        if shown.count < calls.count {
            lines.append("  … and \(calls.count - shown.count) more")
        }
        return lines.joined(separator: "\n")
    }

    /// `1 call`, `2 calls`; `1 was`, `2 were`.
    static func count(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        if let plural, count != 1 { return "\(count) \(plural)" }
        return "\(count) \(singular)\(count == 1 || plural != nil ? "" : "s")"
    }

    /// A paragraph with the CustomDump diff between `expected` and the closest of `calls`, or "" when there
    /// are no calls. `indexOffset` is the index of `calls[0]` among all recorded calls.
    static func closestDifference(to expected: ExpectedCall, in calls: [Call], indexOffset: Int = 0) -> String {
        guard let index = closestIndex(to: expected, in: calls) else { return "" }
        let call = calls[index]
        let difference: String?
        if let arguments = expected.arguments {
            let expectedCall = Call(method: expected.method, arguments: arguments, order: call.order)
            difference = diff(expectedCall, call, format: .proportional)
        } else {
            difference = diff(expected.method, call.method, format: .proportional)
        }
        guard let difference else { return "" }
        return """


            Difference from the closest recorded call, [\(index + indexOffset)] (−expected +recorded):
            \(difference.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))
            """
    }

    /// The closest call: the same method first, then the most similar arguments, then the most similar
    /// method name; the earliest among equals.
    static func closestIndex(to expected: ExpectedCall, in calls: [Call]) -> Int? {
        var nameSimilarity: [String: Double] = [:]
        var best: (index: Int, score: (Int, Double, Double))?
        for (index, call) in calls.enumerated() {
            let sameMethod = call.method == expected.method
            let arguments = expected.arguments.map { similarity($0, call.arguments) } ?? 0
            let name: Double
            if sameMethod {
                name = 1
            } else if let known = nameSimilarity[call.method] {
                name = known
            } else {
                name = similarity(expected.method, call.method)
                nameSimilarity[call.method] = name
            }
            let score = (sameMethod ? 1 : 0, arguments, name)
            if best == nil || score > best!.score { best = (index, score) }
        }
        return best?.index
    }

    /// 0 (nothing alike) to 1 (equal), position by position.
    static func similarity(_ expected: [Argument], _ recorded: [Argument]) -> Double {
        let length = max(expected.count, recorded.count)
        guard length > 0 else { return 1 }
        let total = zip(expected, recorded).reduce(0.0) { sum, pair in
            switch pair {
            case (.value(let lhs), .value(let rhs)): return sum + similarity(lhs, rhs)
            case (.dump(let lhs), .dump(let rhs)): return sum + (lhs == rhs ? 1 : similarity(lhs, rhs) * 0.9)
            case (.instance(let lhsType, let lhs), .instance(let rhsType, let rhs)):
                return sum + (lhs == rhs ? 1 : lhsType == rhsType ? 0.9 : 0)
            default: return sum
            }
        }
        return total / Double(length)
    }

    static func similarity(_ lhs: PropertyValue, _ rhs: PropertyValue) -> Double {
        if lhs == rhs { return 1 }
        switch (lhs, rhs) {
        case (.object(let lhs), .object(let rhs)):
            let keys = Set(lhs.keys).union(rhs.keys)
            let score = keys.reduce(0.0) { sum, key in
                guard let left = lhs[key], let right = rhs[key] else { return sum }
                return sum + 0.2 + 0.8 * similarity(left, right)
            }
            return 0.1 + 0.8 * score / Double(keys.count)
        case (.array(let lhs), .array(let rhs)):
            return 0.1 + 0.8 * similarity(lhs.map(Argument.value), rhs.map(Argument.value))
        default:
            return lhs.typeName == rhs.typeName ? 0.1 : 0
        }
    }

    /// 0 to 1: how much of the longer string the longest common prefix and suffix cover.
    static func similarity(_ lhs: String, _ rhs: String) -> Double {
        let lhs = Array(lhs.unicodeScalars)
        let rhs = Array(rhs.unicodeScalars)
        let length = max(lhs.count, rhs.count)
        guard length > 0 else { return 1 }
        let prefix = zip(lhs, rhs).prefix { $0 == $1 }.count
        let suffix = zip(lhs.reversed(), rhs.reversed()).prefix { $0 == $1 }.count
        return Double(min(prefix + suffix, length)) / Double(length)
    }

    /// Why `expectCalled` found no call to account for: none matches `expected` (with a diff against the
    /// closest call), or every match was accounted for by an earlier expectation.
    /// Why no call matched `expected` with `predicate`: the calls to the member the predicate turned down,
    /// or those it accepted that were accounted for already.
    static func unmatchedMessage(for expected: ExpectedCall, where predicate: (Call) -> Bool, in calls: [Call])
        -> String
    {
        let what = expected.arguments == nil ? "a call to \(expected.method)" : "the call \(expected)"
        let candidates = calls.indices.filter { expected.matches(calls[$0]) }
        let accepted = candidates.filter { predicate(calls[$0]) }
        guard accepted.isEmpty else {
            return """
                Expected \(what) that the predicate accepts and no other expectation accounted for, but the \
                \(count(accepted.count, "call it accepts was", "calls it accepts were")) accounted for already:
                \(accepted.map { "  [\($0)] \(calls[$0])" }.joined(separator: "\n"))

                \(listing(calls))
                """
        }
        guard !candidates.isEmpty else {
            return """
                Expected \(what) that the predicate accepts, but no call to \(expected.method) was recorded.

                \(listing(calls))
                """
        }
        return """
            Expected \(what) that the predicate accepts, but it turned down \
            \(count(candidates.count, "recorded call", "recorded calls")) to \(expected.method):
            \(candidates.map { "  [\($0)] \(calls[$0])" }.joined(separator: "\n"))

            \(listing(calls))
            """
    }

    static func unmatchedMessage(for expected: ExpectedCall, in calls: [Call]) -> String {
        let matching = calls.indices.filter { expected.matches(calls[$0]) }
        guard matching.isEmpty else {
            let what = expected.arguments == nil ? "a call to \(expected.method)" : "the call \(expected)"
            return """
                Expected \(what) that no other expectation accounted for, but its \(count(matching.count, "recorded call was", "recorded calls were")) accounted for already:
                \(matching.map { "  [\($0)] \(calls[$0])" }.joined(separator: "\n"))

                Each expectCalled accounts for one call: expecting it once more says it was made once more. \
                To check a call again without counting it twice, use expectCount or expectCalls(inOrder:).

                \(listing(calls))
                """
        }
        let headline =
            expected.arguments == nil
            ? "Expected a call to \(expected.method), but it was never called."
            : "No recorded call matches the expected call:\n  \(expected)"
        return "\(headline)\n\n\(listing(calls))\(closestDifference(to: expected, in: calls))"
    }

    // MARK: - Recording issues

    static func unstubbedMessage(_ call: Call, returnType: Any.Type, recordName: String) -> String {
        """
        Unstubbed call to \(call.method), which returns \(returnType): returned the spy's default.

        Call: \(call)

        Stub it on the spy's recorder before the code under test calls it:
          calls.stub("\(call.method)", returning: <\(returnType)>)
        or answer from the arguments with calls.stub("\(call.method)") { call in ... }.
        To return the default named in \(recordName) without an issue, create the recorder as \
        CallRecorder(mode: .relaxed).
        """
    }

    static func throwingStubMessage(_ call: Call, error: any Error, recordName: String) -> String {
        """
        The stub for \(call.method) threw \(error), but the spy records it with \(recordName), which \
        cannot throw: record it with recordThrowing(...) in a method that throws.

        Call: \(call)
        """
    }

    static func noCurrentRecorderMessage(_ call: Call) -> String {
        """
        Static call to \(call.method) with no current CallRecorder: the call was not recorded.

        Call: \(call)

        Run the code under test inside CallRecorder.withCurrent(recorder) { ... }. Only code in that \
        closure's task tree sees the recorder: calls on a thread the test did not start there (a \
        DispatchQueue, a vendor's own thread, a detached task) do not. For an SDK that calls back on its own \
        threads, route the static API through an instance adapter and give the adapter a spy instead.
        """
    }
}
