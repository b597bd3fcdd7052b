/// A parsed pattern: what the parser builds and the compiler turns into a program.
indirect enum PatternNode: Equatable, Sendable {
    /// Matches the empty text (an empty pattern, alternative or group).
    case empty
    /// One character passing the test.
    case character(CharacterPredicate)
    case concatenation([PatternNode])
    case alternation([PatternNode])
    /// `min` to `max` (nil: no bound) repetitions.
    case repetition(PatternNode, min: Int, max: Int?)
    /// `^`: only at the start of the text.
    case start
    /// `$`: only at the end of the text.
    case end

    /// Instructions the compiled form takes (without the final match), saturating at
    /// `PatternNode.sizeCeiling` so a huge count cannot overflow.
    var size: Int {
        switch self {
        case .empty: return 0
        case .character, .start, .end: return 1
        case .concatenation(let parts): return parts.reduce(0) { PatternNode.add($0, $1.size) }
        case .alternation(let parts):
            // A split before every alternative but the last, a jump after each of them.
            return PatternNode.add(parts.reduce(0) { PatternNode.add($0, $1.size) }, 2 * (parts.count - 1))
        case .repetition(let node, let min, let max):
            let s = node.size
            switch (min, max) {
            case (0, nil): return PatternNode.add(s, 2)
            case (_, nil): return PatternNode.add(PatternNode.multiply(s, min), 1)
            case (_, let max?): return PatternNode.add(PatternNode.multiply(s, min), PatternNode.multiply(s + 1, max - min))
            }
        }
    }

    static let sizeCeiling = Int(Int32.max)

    private static func add(_ a: Int, _ b: Int) -> Int { Swift.min(a + b, sizeCeiling) }
    private static func multiply(_ a: Int, _ b: Int) -> Int {
        let (p, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? sizeCeiling : Swift.min(p, sizeCeiling)
    }
}
