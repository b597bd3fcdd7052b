import Glibc
import Synchronization

/// A pattern of formd's dialect (protocol/README.md, "Patterns"), parsed, and matched
/// against whole texts in time linear in the text, without backtracking.
///
/// Parsing checks the syntax and measures the compiled size; the automaton is built on
/// the first match, so a caller can refuse a pattern too large for its limit (`size`)
/// before it costs more than its parse.
///
/// Automata kept between matches are bounded across the process (`keptBudget`): one that
/// would take the total past it is let go after its match and built again on the next, so
/// thousands of fields with large patterns cost their parses, not their automata.
public final class Pattern: Sendable {
    public let source: String
    /// Instructions of the compiled program: what a limit on compiled size bounds. Measured
    /// without building it, and at most `Pattern.sizeCeiling`.
    public let size: Int
    /// The largest `size` reported: a pattern measured at it may be larger still.
    public static let sizeCeiling = PatternNode.sizeCeiling
    private let root: PatternNode
    private let matcher: Mutex<Matcher>

    /// The automaton, and the last text matched with its answer: a field rebuilt with its
    /// pattern (configureField, setEnabled, setSecure, setRevealed) asks again about a text
    /// it asked about before, and fields sharing a preset's pattern and text ask in turn.
    private struct Matcher: ~Copyable {
        var dfa: LazyDFA? = nil
        /// Bytes of `dfa` counted in `Pattern.kept`.
        var keptBytes = 0
        var lastText: String? = nil
        var lastResult = false
        /// Texts the automaton has read, for tests of the memo.
        var runs = 0
    }

    /// Bytes of automata all patterns keep between matches.
    static let kept = Atomic<Int>(0)
    /// At most this many bytes of automata are kept between matches, all patterns together.
    public static let keptBudget = 32 << 20

    /// Bytes of automata all patterns keep between matches now.
    public static var keptBytes: Int { kept.load(ordering: .relaxed) }

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
            Pattern.keepOrDrop(&m)
            return result
        }
    }

    deinit {
        let bytes = matcher.withLock { $0.keptBytes }
        Pattern.kept.subtract(bytes, ordering: .relaxed)
    }

    /// After a match: counts what the automaton holds now, or lets it go when that would
    /// take the automata of all patterns past `keptBudget`.
    private static func keepOrDrop(_ m: inout Matcher) {
        let now = m.dfa!.heldBytes
        let total = kept.add(now - m.keptBytes, ordering: .relaxed).newValue
        if total > keptBudget {
            kept.subtract(now, ordering: .relaxed)
            m.dfa = nil
            m.keptBytes = 0
        } else {
            m.keptBytes = now
        }
    }

    /// Whole texts read by the automaton so far (not answered from the memo).
    var runs: Int { matcher.withLock { $0.runs } }

    /// True when each character of `text` on its own matches: an input filter's test.
    public func matchesEachCharacter(of text: String) -> Bool {
        matcher.withLock { m in
            if m.dfa == nil { m.dfa = LazyDFA(Program(root)) }
            let dfa = m.dfa!
            let result = text.allSatisfy { dfa.matches(String($0)) }
            Pattern.keepOrDrop(&m)
            return result
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
