/// Reads formd's pattern dialect (protocol/README.md, "Patterns") into a `PatternNode`,
/// refusing every construct the dialect does not have by name and offset.
///
/// The pattern is read as characters (grapheme clusters), as a field's text is; offsets
/// count them from 0.
struct PatternParser {
    /// Highest count `{m,n}` may give.
    static let maxCount = 1000
    /// Deepest nesting of groups.
    static let maxDepth = 100

    private let chars: [[UInt32]]
    private var i = 0
    private var depth = 0

    init(_ source: String) {
        chars = source.map { $0.unicodeScalars.map(\.value) }
    }

    static func parse(_ source: String) throws(PatternError) -> PatternNode {
        var p = PatternParser(source)
        try p.checkJoinedSyntax()
        let node = try p.alternation()
        if p.i < p.chars.count {
            // alternation() stops only at ")" at top level.
            throw PatternError(p.i, "unmatched ) at offset \(p.i); escape it as \\)")
        }
        return node
    }

    // MARK: Characters

    private static let syntax: Set<UInt32> = Set("\\^$.|?*+()[]{}".unicodeScalars.map(\.value))

    /// The scalar of the character at `k` when it is one ASCII scalar, else nil.
    private func ascii(_ k: Int) -> UInt32? {
        guard k < chars.count, chars[k].count == 1, chars[k][0] < 0x80 else { return nil }
        return chars[k][0]
    }

    private func at(_ k: Int, _ c: Character) -> Bool { ascii(k) == c.unicodeScalars.first!.value }

    private func text(_ from: Int, _ to: Int) -> String {
        var s = ""
        for k in from..<Swift.min(to, chars.count) {
            for v in chars[k] { s.unicodeScalars.append(Unicode.Scalar(v)!) }
        }
        return s
    }

    /// A mark after a syntax character joins it into one character, which would be
    /// neither syntax nor a literal anyone meant.
    private func checkJoinedSyntax() throws(PatternError) {
        for (k, c) in chars.enumerated() where c.count > 1 && PatternParser.syntax.contains(c[0]) {
            throw PatternError(k, "\(text(k, k + 1).unicodeScalars.first!) at offset \(k) is joined by U+\(hex(c[1])) into one character; a syntax character cannot take a combining mark")
        }
    }

    // MARK: Structure

    private mutating func alternation() throws(PatternError) -> PatternNode {
        var branches = [try concatenation()]
        while at(i, "|") {
            i += 1
            branches.append(try concatenation())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func concatenation() throws(PatternError) -> PatternNode {
        var parts: [PatternNode] = []
        while i < chars.count && !at(i, "|") && !at(i, ")") {
            let atomStart = i
            let atom = try self.atom()
            parts.append(try quantified(atom, from: atomStart))
        }
        switch parts.count {
        case 0: return .empty
        case 1: return parts[0]
        default: return .concatenation(parts)
        }
    }

    private mutating func quantified(_ atom: PatternNode, from atomStart: Int) throws(PatternError) -> PatternNode {
        guard let q = try quantifier() else { return atom }
        if at(atomStart, "^") || at(atomStart, "$") {
            throw PatternError(q.offset, "quantifier \(q.text) at offset \(q.offset) follows an anchor, which has nothing to repeat")
        }
        // A lazy quantifier ("*?") matches the same whole texts as the greedy one.
        if at(i, "?") { i += 1 }
        if at(i, "+") {
            throw PatternError.unsupported("possessive quantifier \(q.text)+", q.offset)
        }
        if let next = try quantifier() {
            throw PatternError(next.offset, "quantifier \(next.text) at offset \(next.offset) follows another quantifier; put the repeated part in a group first")
        }
        return .repetition(atom, min: q.min, max: q.max)
    }

    private struct Quantifier {
        var min: Int
        var max: Int?
        var offset: Int
        var text: String
    }

    /// A quantifier at `i`, consumed; nil if there is none.
    private mutating func quantifier() throws(PatternError) -> Quantifier? {
        let start = i
        switch ascii(i) {
        case 0x2A: i += 1; return Quantifier(min: 0, max: nil, offset: start, text: "*")
        case 0x2B: i += 1; return Quantifier(min: 1, max: nil, offset: start, text: "+")
        case 0x3F: i += 1; return Quantifier(min: 0, max: 1, offset: start, text: "?")
        case 0x7B: return try counted()
        default: return nil
        }
    }

    /// `{m}`, `{m,}` or `{m,n}` at `i`.
    private mutating func counted() throws(PatternError) -> Quantifier {
        let start = i
        var k = i + 1
        func number() -> Int? {
            var n: Int? = nil
            while let d = ascii(k), (0x30...0x39).contains(d) {
                n = Swift.min((n ?? 0) * 10 + Int(d - 0x30), PatternParser.maxCount + 1)
                k += 1
            }
            return n
        }
        let notRepetition = PatternError(start, "{ at offset \(start) does not start a repetition {m}, {m,} or {m,n}; escape it as \\{")
        guard let min = number() else { throw notRepetition }
        var max: Int? = min
        if at(k, ",") {
            k += 1
            max = number()
        }
        guard at(k, "}") else { throw notRepetition }
        k += 1
        let written = text(start, k)
        for n in [min, max ?? 0] where n > PatternParser.maxCount {
            throw PatternError(start, "\(written) at offset \(start) counts above \(PatternParser.maxCount), the most a repetition may give")
        }
        if let max, max < min {
            throw PatternError(start, "\(written) at offset \(start) has its minimum above its maximum")
        }
        i = k
        return Quantifier(min: min, max: max, offset: start, text: written)
    }

    private mutating func atom() throws(PatternError) -> PatternNode {
        let start = i
        guard let c = ascii(i) else {
            i += 1
            let s = chars[start]
            return .character(s.count == 1 ? .scalars([s[0]...s[0]]) : .sequence(s))
        }
        switch c {
        case 0x28: return try group()
        case 0x5B: return try characterClass()
        case 0x2E: i += 1; return .character(.any)
        case 0x5E: i += 1; return .start
        case 0x24: i += 1; return .end
        case 0x5C: return .character(try escape(inClass: false))
        case 0x2A, 0x2B, 0x3F:
            throw PatternError(start, "quantifier \(text(start, start + 1)) at offset \(start) has nothing to repeat")
        case 0x7B:
            if (try? counted()) != nil {
                throw PatternError(start, "quantifier \(text(start, i)) at offset \(start) has nothing to repeat")
            }
            throw PatternError(start, "{ at offset \(start) does not start a repetition {m}, {m,} or {m,n}; escape it as \\{")
        case 0x7D, 0x5D:
            let ch = text(start, start + 1)
            throw PatternError(start, "unescaped \(ch) at offset \(start); escape it as \\\(ch)")
        default:
            i += 1
            return .character(.scalars([c...c]))
        }
    }

    /// `(…)` or `(?:…)`; every other `(?` form is refused.
    private mutating func group() throws(PatternError) -> PatternNode {
        let open = i
        i += 1
        if at(i, "?") {
            let refused: [(String, String)] = [
                ("?:", ""), ("?=", "lookahead (?="), ("?!", "negative lookahead (?!"),
                ("?<=", "lookbehind (?<="), ("?<!", "negative lookbehind (?<!"), ("?>", "atomic group (?>"),
                ("?P<", "named group (?P<"), ("?P=", "named backreference (?P="), ("?P>", "subroutine call (?P>"),
                ("?<", "named group (?<"), ("?'", "named group (?'"), ("?#", "comment (?#"), ("?|", "branch reset (?|"),
                ("?(", "conditional (?("), ("?R", "recursion (?R"), ("?&", "subroutine call (?&"),
            ]
            for (prefix, name) in refused where text(i, i + prefix.count) == prefix {
                if name.isEmpty { i += prefix.count; break }
                throw PatternError.unsupported(name, open)
            }
            if i == open + 1 {
                if let d = ascii(i + 1), (0x30...0x39).contains(d) || d == 0x2B || d == 0x2D {
                    throw PatternError.unsupported("subroutine call \(text(open, i + 2))", open)
                }
                throw PatternError.unsupported("inline flags or group modifier \(text(open, i + 2))", open,
                                               "the dialect has no flags: write the variants out (e.g. [Aa])")
            }
        }
        depth += 1
        if depth > PatternParser.maxDepth {
            throw PatternError(open, "group at offset \(open) nests deeper than \(PatternParser.maxDepth) groups")
        }
        let inner = try alternation()
        depth -= 1
        guard at(i, ")") else {
            throw PatternError(open, "group opened at offset \(open) is not closed")
        }
        i += 1
        return inner
    }

    // MARK: Classes

    /// `[…]` or `[^…]`.
    private mutating func characterClass() throws(PatternError) -> PatternNode {
        let open = i
        i += 1
        var negated = false
        if at(i, "^") { negated = true; i += 1 }
        var items: [CharacterPredicate] = []
        var first = true
        while true {
            guard i < chars.count else {
                throw PatternError(open, "character class opened at offset \(open) is not closed")
            }
            if at(i, "]") {
                if first {
                    throw PatternError(open, "empty character class \(text(open, i + 1)) at offset \(open); to match a ], escape it as \\]")
                }
                i += 1
                break
            }
            let itemStart = i
            if at(i, "[") {
                throw PatternError.unsupported("[ inside a class (a nested or POSIX class)", i, "escape it as \\[")
            }
            if at(i, "&") && at(i + 1, "&") { throw PatternError.unsupported("class intersection &&", i) }
            if at(i, "-") && at(i + 1, "-") { throw PatternError.unsupported("class subtraction --", i) }
            if at(i, "~") && at(i + 1, "~") { throw PatternError.unsupported("class symmetric difference ~~", i) }
            if at(i, "-") && !first && i + 1 < chars.count && !at(i + 1, "]") {
                throw PatternError(i, "- at offset \(i) is neither a range nor first or last in the class; escape it as \\-")
            }
            let low = try classMember()
            if at(i, "-") && at(i + 1, "-") { throw PatternError.unsupported("class subtraction --", i) }
            if at(i, "-") && i + 1 < chars.count && !at(i + 1, "]") {
                i += 1
                let high = try classMember()
                guard case .scalars(let l) = low, l.count == 1, l[0].lowerBound == l[0].upperBound,
                      case .scalars(let h) = high, h.count == 1, h[0].lowerBound == h[0].upperBound else {
                    throw PatternError(itemStart, "range \(text(itemStart, i)) at offset \(itemStart) has an end that is not a single character")
                }
                let lo = l[0].lowerBound, hi = h[0].lowerBound
                if hi < lo {
                    throw PatternError(itemStart, "range \(text(itemStart, i)) at offset \(itemStart) is out of order")
                }
                items.append(.scalars([lo...hi]))
            } else {
                items.append(low)
            }
            first = false
        }
        let set: CharacterPredicate = items.count == 1 ? items[0] : .union(items)
        return .character(negated ? .not(set) : set)
    }

    /// One member of a class: a character, or an escape.
    private mutating func classMember() throws(PatternError) -> CharacterPredicate {
        if at(i, "\\") { return try escape(inClass: true) }
        let s = chars[i]
        i += 1
        return s.count == 1 ? .scalars([s[0]...s[0]]) : .sequence(s)
    }

    // MARK: Escapes

    /// `\…` at `i`: an escaped syntax character, a named character, a class escape or a
    /// property; everything else is refused by name.
    private mutating func escape(inClass: Bool) throws(PatternError) -> CharacterPredicate {
        let start = i
        i += 1
        guard i < chars.count else {
            throw PatternError(start, "the pattern ends with a lone \\ at offset \(start); write \\\\ for a backslash")
        }
        guard let c = ascii(i) else {
            throw PatternError(start, "escape \(text(start, i + 1)) at offset \(start) is not supported; only ASCII punctuation and the escapes listed in the dialect follow \\")
        }
        i += 1
        let written = text(start, i)
        func one(_ v: UInt32) -> CharacterPredicate { .scalars([v...v]) }
        switch Character(Unicode.Scalar(c)!) {
        case "d": return .digit
        case "D": return .not(.digit)
        case "w": return .word
        case "W": return .not(.word)
        case "s": return .space
        case "S": return .not(.space)
        case "n": return one(0x0A)
        case "r": return one(0x0D)
        case "t": return one(0x09)
        case "f": return one(0x0C)
        case "u": return one(try codePoint(start: start, braced: at(i, "{") , digits: 4))
        case "x": return one(try codePoint(start: start, braced: at(i, "{"), digits: 2))
        case "p", "P": return try property(start: start, negated: c == 0x50)
        case "b": throw inClass ? .unsupported("backspace escape \\b in a class", start, "write \\u{8}")
                                : .unsupported("word boundary \\b", start)
        case "B": throw PatternError.unsupported("non-word-boundary \\B", start)
        case "A": throw PatternError.unsupported("start-of-text anchor \\A", start, "the whole text is always matched; ^ also means its start")
        case "z", "Z": throw PatternError.unsupported("end-of-text anchor \(written)", start, "the whole text is always matched; $ also means its end")
        case "G": throw PatternError.unsupported("previous-match anchor \\G", start)
        case "K": throw PatternError.unsupported("match reset \\K", start)
        case "k": throw PatternError.unsupported("named backreference \\k", start)
        case "g": throw PatternError.unsupported("backreference or subroutine call \\g", start)
        case "X": throw PatternError.unsupported("grapheme cluster escape \\X", start, "in this dialect . already matches one whole character")
        case "R": throw PatternError.unsupported("line-break escape \\R", start, "write (\\r\\n|\\n|\\r); CR LF is one character, so \\s or [\\n\\r] matches it only through \\s")
        case "Q", "E": throw PatternError.unsupported("quoting \\Q…\\E", start, "escape each syntax character with \\")
        case "c": throw PatternError.unsupported("control escape \\c", start, "write \\u{…}")
        case "0": throw PatternError.unsupported("octal or NUL escape \\0", start, "write \\u{…}")
        case "1"..."9":
            throw PatternError.unsupported("backreference \(written)", start)
        default:
            if c < 0x80, PatternParser.escapablePunctuation.contains(c) { return one(c) }
            throw PatternError.unsupported("escape \(written)", start)
        }
    }

    /// ASCII punctuation and space, which `\` makes literal.
    private static let escapablePunctuation: Set<UInt32> = Set(" !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".unicodeScalars.map(\.value))

    /// The scalar of `\uHHHH`, `\xHH`, `\u{H…}` or `\x{H…}` (1 to 6 hex digits, at most
    /// 10FFFF, not a surrogate), `i` just past the letter.
    private mutating func codePoint(start: Int, braced: Bool, digits: Int) throws(PatternError) -> UInt32 {
        var value: UInt32 = 0
        var count = 0
        if braced { i += 1 }
        while let h = ascii(i), let d = PatternParser.hexValue(h), braced ? count < 7 : count < digits {
            value = value &* 16 &+ d
            count += 1
            i += 1
        }
        let ok = braced ? (count >= 1 && count <= 6 && at(i, "}")) : count == digits
        let written = text(start, braced ? i + 1 : i)
        if !ok {
            let form = text(start, start + 2)
            throw PatternError(start, "\(written) at offset \(start) is not a code point; write \(form){H…} with 1 to 6 hex digits" + (braced ? "" : " or \(form) with exactly \(digits)"))
        }
        if braced { i += 1 }
        guard Unicode.Scalar(value) != nil else {
            throw PatternError(start, "\(written) at offset \(start) is not a Unicode scalar value (a surrogate or above 10FFFF)")
        }
        return value
    }

    private static func hexValue(_ c: UInt32) -> UInt32? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    /// `\p{Name}` / `\P{Name}` with a General_Category name, `i` just past the letter.
    private mutating func property(start: Int, negated: Bool) throws(PatternError) -> CharacterPredicate {
        let letter = text(start, start + 2)
        guard at(i, "{") else {
            throw PatternError(start, "\(letter) at offset \(start) takes a braced name, as in \(letter){L}")
        }
        var k = i + 1
        while k < chars.count && !at(k, "}") { k += 1 }
        guard k < chars.count else {
            throw PatternError(start, "\(letter){ at offset \(start) is not closed with }")
        }
        let name = text(i + 1, k)
        let written = text(start, k + 1)
        guard let mask = GeneralCategories.mask(named: name), !name.isEmpty, name.count <= 2 else {
            throw PatternError.unsupported("Unicode property \(written)", start,
                                           "only General_Category names are (L, Lu, Ll, Lt, Lm, Lo, M, Mn, Mc, Me, N, Nd, Nl, No, P, Pc, Pd, Ps, Pe, Pi, Pf, Po, S, Sm, Sc, Sk, So, Z, Zs, Zl, Zp, C, Cc, Cf, Cs, Co, Cn)")
        }
        i = k + 1
        return negated ? .not(.categories(mask)) : .categories(mask)
    }
}

func hex(_ v: UInt32) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: Swift.max(0, 4 - s.count)) + s
}
