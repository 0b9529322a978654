/// "Did you mean" for words in a plan: the known word closest to a misspelt one.
enum Suggestions {
    /// The known word closest to `word` by edit distance, if it is close enough to be a likely typo.
    static func closest(to word: String, in known: [String]) -> String? {
        let lowered = word.lowercased()
        var best: (String, Int)?
        for candidate in known {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= max(1, min(3, candidate.count / 3)), distance < (best?.1 ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.0
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbouring characters each count one, so `minLenght` is one edit from `minLength`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
