/// "Did you mean": the known name a mistyped one most likely meant.
enum NameSuggestion {
    /// The name of `known` nearest to `name` when it is at most two edits away (an edit:
    /// a character added, removed, replaced, or two neighbours swapped; case ignored), the
    /// first of them on a tie; nil when none is that near.
    static func nearest(to name: String, in known: [String]) -> String? {
        let a = Array(name.lowercased().unicodeScalars)
        // Longer than any method or key by far: not worth comparing (it may be a whole line).
        guard a.count <= 64 else { return nil }
        var best: (name: String, distance: Int)? = nil
        for candidate in known {
            let b = Array(candidate.lowercased().unicodeScalars)
            guard abs(a.count - b.count) <= 2 else { continue }
            let d = distance(a, b)
            if d <= 2 && d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// ` (did you mean "x"?)` for the nearest name, or nothing.
    static func clause(for name: String, in known: [String]) -> String {
        nearest(to: name, in: known).map { " (did you mean \"\($0)\"?)" } ?? ""
    }

    /// Edits from `a` to `b`, counting a swap of neighbours as one (optimal string alignment).
    private static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
