import Glibc
import Synchronization

/// A pattern of formd's dialect (protocol/README.md, "Patterns"), parsed, and matched
/// against whole texts in time linear in the text, without backtracking.
///
/// Parsing checks the syntax and measures the compiled size; the automaton is built on
/// the first match, so a caller can refuse a pattern too large for its limit (`size`)
/// before it costs more than its parse.
public final class Pattern: Sendable {
    public let source: String
    /// Instructions of the compiled program: what a limit on compiled size bounds. Measured
    /// without building it, and at most `Pattern.sizeCeiling`.
    public let size: Int
    /// The largest `size` reported: a pattern measured at it may be larger still.
    public static let sizeCeiling = PatternNode.sizeCeiling
    private let root: PatternNode
    private let matcher: Mutex<Matcher>

    /// The automaton, and the last text matched with its answer: a command re-run for
    /// each position encoding in use asks again about the same text.
    private struct Matcher: ~Copyable {
        var dfa: LazyDFA? = nil
        var lastText: String? = nil
        var lastResult = false
        /// Texts the automaton has read, for tests of the memo.
        var runs = 0
    }

    public init(_ source: String) throws(PatternError) {
        self.source = source
        root = try PatternParser.parse(source)
        size = Swift.min(root.size + 1, PatternNode.sizeCeiling)
        matcher = Mutex(Matcher())
    }

    /// True when the whole of `text` matches (not just a part of it).
    public func matchesWhole(_ text: String) -> Bool {
        matcher.withLock { m in
            if let last = m.lastText, Pattern.sameBytes(last, text) { return m.lastResult }
            if m.dfa == nil { m.dfa = LazyDFA(Program(root)) }
            let result = m.dfa!.matches(text)
            m.runs += 1
            m.lastText = text
            m.lastResult = result
            return result
        }
    }

    /// Whole texts read by the automaton so far (not answered from the memo).
    var runs: Int { matcher.withLock { $0.runs } }

    /// True when each character of `text` on its own matches: an input filter's test.
    public func matchesEachCharacter(of text: String) -> Bool {
        matcher.withLock { m in
            if m.dfa == nil { m.dfa = LazyDFA(Program(root)) }
            let dfa = m.dfa!
            return text.allSatisfy { dfa.matches(String($0)) }
        }
    }

    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        guard a.utf8.count == b.utf8.count else { return false }
        a.makeContiguousUTF8()
        b.makeContiguousUTF8()
        return a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0
            }
        }!!
    }
}
