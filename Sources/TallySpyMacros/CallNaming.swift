#if SpyMacro
/// Gives each recorded name the name of its call with any arguments, unique within the spy's `Call`.
///
/// Members that share a recorded name (overloads that differ only in types) share it too. Otherwise the
/// base name is kept when it is unique, and members that share one add their argument labels
/// (`trackEvent`, `trackEventType`), then their number of arguments, then a counter.
struct CallNaming {
    /// The name of each recorded name's call with any arguments.
    private(set) var names: [String: String] = [:]

    init(_ calls: [CallName]) {
        var groups: [String: [CallName]] = [:]
        var order: [String] = []
        for call in calls {
            if groups[call.base] == nil { order.append(call.base) }
            groups[call.base, default: []].append(call)
        }
        var used: Set<String> = []
        for base in order {
            let group = Self.uniqueByRecorded(groups[base] ?? [])
            var candidates: [String: String] = [:]
            if group.count == 1 {
                candidates[group[0].recorded] = base
            } else {
                for call in group { candidates[call.recorded] = base + Self.labelSuffix(call) }
                if Set(candidates.values).count < group.count {
                    for call in group {
                        candidates[call.recorded] = base + Self.labelSuffix(call) + "\(call.arguments.count)"
                    }
                }
            }
            for call in group {
                var name = candidates[call.recorded] ?? base
                var counter = 2
                while used.contains(name) {
                    name = (candidates[call.recorded] ?? base) + "\(counter)"
                    counter += 1
                }
                used.insert(name)
                names[call.recorded] = name
            }
        }
    }

    func name(of call: CallName) -> String {
        names[call.recorded] ?? call.base
    }

    private static func uniqueByRecorded(_ calls: [CallName]) -> [CallName] {
        var seen: Set<String> = []
        return calls.filter { seen.insert($0.recorded).inserted }
    }

    /// `EventTypeProperties` for `track(eventType:properties:)`: every argument label, capitalised, `_` left
    /// out.
    private static func labelSuffix(_ call: CallName) -> String {
        call.arguments.compactMap(\.label).filter { $0 != "newValue" }.map { label in
            label.prefix(1).uppercased() + label.dropFirst()
        }.joined()
    }
}

/// Swift's keywords, which a static member's name must put in backticks.
enum SwiftKeywords {
    static let reserved: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "Any", "as", "false", "is", "nil", "self", "Self", "super",
        "throws", "true", "try", "await",
    ]

    /// `default` -> `` `default` ``.
    static func escaped(_ name: String) -> String {
        reserved.contains(name) ? "`\(name)`" : name
    }
}
#endif
