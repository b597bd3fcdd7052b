import XCTest
import FormdTestSupport
@testable import FormdPattern

/// The automaton agrees with a plain reading of the parsed pattern (sets of positions,
/// no automaton), on random patterns and texts, and reads characters as Swift's `String`
/// does.
final class AgreementTests: XCTestCase {
    /// The positions where `node` can end when it starts at any of `from`.
    private func ends(_ node: PatternNode, _ text: [[UInt32]], _ from: Set<Int>) -> Set<Int> {
        switch node {
        case .empty: return from
        case .character(let p): return Set(from.filter { $0 < text.count && p.accepts(text[$0]) }.map { $0 + 1 })
        case .start: return from.filter { $0 == 0 }
        case .end: return from.filter { $0 == text.count }
        case .concatenation(let parts): return parts.reduce(from) { ends($1, text, $0) }
        case .alternation(let parts): return parts.reduce(into: Set<Int>()) { $0.formUnion(ends($1, text, from)) }
        case .repetition(let p, let min, let max):
            var current = from
            for _ in 0..<min { current = ends(p, text, current) }
            var all = current
            var count = min
            while max.map({ count < $0 }) ?? true {
                let next = ends(p, text, current).subtracting(max == nil ? all : [])
                if next.isEmpty || (max == nil && next.isSubset(of: all)) { break }
                all.formUnion(next)
                current = next
                count += 1
            }
            return all
        }
    }

    private func randomPattern(_ g: inout SplitMix64, depth: Int) -> String {
        let atoms = ["a", "b", ".", "[ab]", "[^a]", "\\d", "\\s", "\\w", "1", "é", "e\u{301}", "\\p{L}", "^", "$"]
        var s = ""
        for _ in 0..<(1 + g.next(below: 3)) {
            var atom: String
            if depth > 0 && g.next(below: 4) == 0 {
                let alts = (0..<(1 + g.next(below: 3))).map { _ in randomPattern(&g, depth: depth - 1) }
                atom = "(" + alts.joined(separator: "|") + ")"
            } else {
                atom = atoms[g.next(below: atoms.count)]
            }
            if atom != "^" && atom != "$" {
                atom += ["", "", "*", "+", "?", "{2}", "{0,2}", "{1,}"][g.next(below: 8)]
            }
            s += atom
        }
        return s
    }

    func testTheAutomatonAgreesWithSetsOfPositions() throws {
        var g = SplitMix64(seed: 20)
        let alphabet = ["a", "b", "1", " ", "é", "e\u{301}", "\r\n", "x"]
        for _ in 0..<400 {
            let source = randomPattern(&g, depth: 2)
            let pattern = try Pattern(source)
            let node = try PatternParser.parse(source)
            for _ in 0..<25 {
                let text = (0..<g.next(below: 7)).map { _ in alphabet[g.next(below: alphabet.count)] }.joined()
                let chars = text.map { $0.unicodeScalars.map(\.value) }
                let expected = ends(node, chars, [0]).contains(chars.count)
                XCTAssertEqual(pattern.matchesWhole(text), expected, "\(source) on \(text.debugDescription)")
            }
        }
    }

    /// Long texts go through the eight-bytes-at-a-time path; a CR, a CR LF, a mark or a
    /// non-ASCII character anywhere in or just after a block must send it back to the
    /// character-by-character path at the right place.
    func testLongTextsAgreeWithSetsOfPositions() throws {
        var g = SplitMix64(seed: 8)
        let pieces = ["a", "b", "1", " ", "\r", "\n", "\r\n", "\u{301}", "é", "ab", "abcdefgh", "abcdefghij"]
        let sources = ["[a-z ]*", "[^\\r]*", ".*", "(\\w|\\s)*", "[ab]*1?.*", ".{8,}", "(\\w+\\s?)*", "\\P{M}*"]
        let patterns = try sources.map { (try Pattern($0), try PatternParser.parse($0)) }
        for _ in 0..<300 {
            let text = (0..<g.next(below: 60)).map { _ in pieces[g.next(below: pieces.count)] }.joined()
            let chars = text.map { $0.unicodeScalars.map(\.value) }
            for (k, (pattern, node)) in patterns.enumerated() {
                XCTAssertEqual(pattern.matchesWhole(text), ends(node, chars, [0]).contains(chars.count), "\(sources[k]) on \(text.debugDescription)")
            }
            XCTAssertTrue(try Pattern(".{\(chars.count)}").matchesWhole(text), text.debugDescription)
        }
    }

    func testTheCompiledSizeIsTheMeasuredSize() throws {
        for source in ["", "a", "a|b|c", "(ab)*", "a+", "a?", "a{3}", "a{2,}", "a{2,5}", "(a|bc){0,3}d", "^a$", "(){3,}", "[a-z]+@[a-z]+"] {
            let node = try PatternParser.parse(source)
            XCTAssertEqual(Program(node).instructions.count, node.size + 1, source)
            XCTAssertEqual(try Pattern(source).size, node.size + 1, source)
        }
        XCTAssertEqual(try Pattern("(((a{1000}){1000}){1000}){1000}").size, PatternNode.sizeCeiling)
    }

    func testCharactersAreReadAsStringReadsThem() {
        var g = SplitMix64(seed: 7)
        let pieces = ["a", "\r", "\n", "\r\n", "\u{301}", "e", "🇫", "🇷", "🇩🇪", "\u{200D}", "👩", "한", "\u{1161}", "\u{1100}", "\u{600}", "x", " ", "\u{915}", "\u{94D}", "\u{937}"]
        for _ in 0..<2000 {
            var text = (0..<g.next(below: 12)).map { _ in pieces[g.next(below: pieces.count)] }.joined()
            text.makeContiguousUTF8()
            var read: [[UInt32]] = []
            text.utf8.withContiguousStorageIfAvailable { bytes in
                var p = 0
                while p < bytes.count {
                    if LazyDFA.isOneByteCharacter(bytes, p) {
                        read.append([UInt32(bytes[p])])
                        p += 1
                    } else {
                        let (scalars, end) = LazyDFA.character(of: text, at: p)
                        read.append(scalars)
                        p = end
                    }
                }
            }
            XCTAssertEqual(read, text.map { $0.unicodeScalars.map(\.value) }, text.debugDescription)
            // And `.` counts them so.
            XCTAssertTrue(try Pattern(".{\(text.count)}").matchesWhole(text), text.debugDescription)
        }
    }

    func testAFullCacheIsEmptiedAndMatchingGoesOn() throws {
        // The automaton of "the 17th character from the end is a" has 2^17 states, far
        // beyond the cache; it must still answer right.
        let p = try Pattern("[ab]*a[ab]{16}")
        var g = SplitMix64(seed: 3)
        for _ in 0..<4 {
            let text = String((0..<30_000).map { _ in g.next(below: 2) == 0 ? Character("a") : Character("b") })
            let chars = Array(text)
            XCTAssertEqual(p.matchesWhole(text), chars[chars.count - 17] == "a")
        }
    }

    func testAPatternKeepsLittleCacheBetweenMatches() {
        // A hostile form gives many fields such a pattern and a long text each: what stays
        // cached after a match is bounded by `retainedBytes`, not by `cacheBudget`.
        let dfa = LazyDFA(Program(try! PatternParser.parse("[ab]*a[ab]{16}")))
        var g = SplitMix64(seed: 5)
        let text = String((0..<20_000).map { _ in g.next(below: 2) == 0 ? Character("a") : Character("b") })
        _ = dfa.matches(text)
        XCTAssertLessThanOrEqual(dfa.cachedBytes, LazyDFA.retainedBytes)
        // A small automaton keeps its states: the next match reuses them.
        let small = LazyDFA(Program(try! PatternParser.parse("[a-z]+")))
        _ = small.matches("hello")
        XCTAssertGreaterThan(small.cachedBytes, 0)
        XCTAssertTrue(small.matches("world"))
    }
}
