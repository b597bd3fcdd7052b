/// Whole-text matching by a deterministic automaton built lazily from a `Program`, as RE2
/// and Rust's `regex` do: a state is the set of instructions the Thompson simulation would
/// hold, made on first need and kept, with its transitions, in a cache of bounded size.
///
/// Each character costs one table lookup once its transition is known, and at most one
/// pass over the program when it is not, so matching is linear in the text whatever the
/// pattern. The input alphabet is the text's characters (grapheme clusters) grouped into
/// classes that every predicate of the program treats alike.
final class LazyDFA {
    private let program: [Program.Instruction]
    private let predicates: [CharacterPredicate]
    /// 64-bit words in a class's predicate bits.
    private let words: Int

    // Classes of characters.
    private var asciiClass = [Int32](repeating: 0, count: 128)
    private var classBits: [UInt64] = []
    private var classIndex: [[UInt64]: Int32] = [:]
    private var scalarClass: [UInt32: Int32] = [:]
    private var classCount = 0

    // States and transitions.
    /// `transitions[state * stride + class]`: the next state, or `unknown`.
    private var transitions: [Int32] = []
    private var stride = 8
    private var states: [[Int32]] = []
    /// Per state: 1 when it is the dead state (no instruction left), where matching stops.
    private var dead: [UInt8] = []
    private var stateIndex: [[Int32]: Int32] = [:]
    /// Per state: 1 when the text may end there, 0 when not, -1 not yet known.
    private var acceptsAtEnd: [Int8] = []
    private var startState: Int32 = LazyDFA.unknown
    private var cacheBytes = 0
    /// Times the cache was emptied.
    private var flushes = 0

    // Scratch for the epsilon closure.
    private var mark: [UInt32]
    private var generation: UInt32 = 0
    private var stack: [Int32] = []

    private static let unknown: Int32 = -1
    /// Bytes of states and transitions kept before the cache is emptied and rebuilt.
    static let cacheBudget = 1 << 21
    /// Bytes of cache a pattern keeps between matches: a text that made more states (a
    /// pattern whose states multiply) gives them back, so the caches of many fields hold
    /// little whatever texts they have checked.
    static let retainedBytes = 1 << 16
    /// Classes kept; a character of a class beyond them is stepped without caching.
    static let maxClasses = 1024
    /// Non-ASCII scalars whose class is remembered.
    static let maxRememberedScalars = 4096

    init(_ program: Program) {
        self.program = program.instructions
        predicates = program.predicates
        words = Swift.max(1, (program.predicates.count + 63) / 64)
        mark = [UInt32](repeating: 0, count: program.instructions.count)
        for b in 0..<128 {
            asciiClass[b] = classOf(bits: bits(of: [UInt32(b)]))
        }
    }

    /// Whether the whole of `text` matches.
    func matches(_ text: String) -> Bool {
        if startState == LazyDFA.unknown { startState = intern(closure(seeds: [0], atStart: true, atEnd: false)) }
        if text.isEmpty { return acceptsEmptyText() }
        var t = text
        t.makeContiguousUTF8()
        let result = t.utf8.withContiguousStorageIfAvailable { run(t, $0) }!
        if cacheBytes > LazyDFA.retainedBytes { empty(keepingCapacity: false) }
        return result
    }

    /// Bytes the cache holds now (states and their transitions).
    var cachedBytes: Int { cacheBytes }

    /// Bytes the automaton holds between matches: its program, scratch, tables and cache.
    var heldBytes: Int {
        program.count * MemoryLayout<Program.Instruction>.stride + mark.count * 4
            + (asciiClass.count + scalarClass.count * 2) * 4 + classBits.count * 8 + predicates.count * 64 + cacheBytes + 256
    }

    private func run(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var s = startState
        var p = 0
        let n = bytes.count
        while p < n {
            // Known steps of one-byte characters, on the raw tables (PERFORMANCE.md, "Patterns").
            let stride = self.stride
            let (state, position, died) = transitions.withUnsafeBufferPointer { t in
                dead.withUnsafeBufferPointer { d in
                    asciiClass.withUnsafeBufferPointer { a -> (Int32, Int, Bool) in
                        var s = s, p = p
                        // Eight ASCII bytes without CR, followed by ASCII or nothing, are eight characters.
                        while p + 8 <= n {
                            let w = UnsafeRawPointer(bytes.baseAddress! + p).loadUnaligned(as: UInt64.self)
                            let cr = w ^ 0x0D0D_0D0D_0D0D_0D0D
                            let mayHoldCR = (cr &- 0x0101_0101_0101_0101) & ~cr & 0x8080_8080_8080_8080 != 0
                            guard w & 0x8080_8080_8080_8080 == 0, !mayHoldCR, p + 8 == n || bytes[p + 8] < 0x80 else { break }
                            for k in 0..<8 {
                                let next = t[Int(s) &* stride &+ Int(a[Int(bytes[p &+ k])])]
                                if next < 0 { return (s, p &+ k, false) }
                                s = next
                                if d[Int(s)] != 0 { return (s, p &+ k &+ 1, true) }
                            }
                            p += 8
                        }
                        if p == n { return (s, p, false) }
                        var b = bytes[p]
                        while b < 0x80 {
                            // The next byte decides whether this one is a character alone.
                            let following: UInt8 = p + 1 < n ? bytes[p + 1] : 0
                            if following >= 0x80 || (b == 0x0D && following == 0x0A) { break }
                            let next = t[Int(s) &* stride &+ Int(a[Int(b)])]
                            if next < 0 { break }
                            s = next
                            p += 1
                            if d[Int(s)] != 0 { return (s, p, true) }
                            if p == n { break }
                            b = following
                        }
                        return (s, p, false)
                    }
                }
            }
            s = state
            p = position
            if died { return false }
            if p == n { break }
            if LazyDFA.isOneByteCharacter(bytes, p) {
                s = step(s, asciiClass[Int(bytes[p])])
                p += 1
            } else {
                let (scalars, end) = LazyDFA.character(of: text, at: p)
                p = end
                let c = classOf(scalars)
                s = c >= 0 ? transition(s, c) : step(s, bits: bits(of: scalars))
            }
            if dead[Int(s)] != 0 { return false }
        }
        return accepts(s)
    }

    /// An ASCII byte followed by another ASCII byte (or nothing) is a character of its
    /// own, unless it is the CR of CR LF.
    @inline(__always)
    static func isOneByteCharacter(_ bytes: UnsafeBufferPointer<UInt8>, _ p: Int) -> Bool {
        let b = bytes[p]
        return b < 0x80 && (p + 1 == bytes.count || (bytes[p + 1] < 0x80 && !(b == 0x0D && bytes[p + 1] == 0x0A)))
    }

    /// The state after `s` reads a character of class `c`, known or made.
    private func transition(_ s: Int32, _ c: Int32) -> Int32 {
        let next = transitions[Int(s) * stride + Int(c)]
        return next >= 0 ? next : step(s, c)
    }

    /// The scalars of the character of `text` that starts at byte `offset` (a character
    /// boundary), and the byte offset where it ends.
    static func character(of text: String, at offset: Int) -> ([UInt32], Int) {
        let from = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
        let to = text.index(after: from)
        return (text.unicodeScalars[from..<to].map(\.value), offset + text.utf8.distance(from: from, to: to))
    }

    // MARK: Classes

    private func bits(of scalars: [UInt32]) -> [UInt64] {
        var v = [UInt64](repeating: 0, count: words)
        for (k, p) in predicates.enumerated() where p.accepts(scalars) {
            v[k / 64] |= 1 << UInt64(k % 64)
        }
        return v
    }

    /// The class of a character beyond ASCII; -1 when the classes are full and this is
    /// a new one.
    private func classOf(_ scalars: [UInt32]) -> Int32 {
        if scalars.count == 1, let known = scalarClass[scalars[0]] { return known }
        let c = classOf(bits: bits(of: scalars))
        if scalars.count == 1 && c >= 0 && scalarClass.count < LazyDFA.maxRememberedScalars { scalarClass[scalars[0]] = c }
        return c
    }

    private func classOf(bits v: [UInt64]) -> Int32 {
        if let known = classIndex[v] { return known }
        if classCount == LazyDFA.maxClasses { return -1 }
        let c = Int32(classCount)
        classIndex[v] = c
        classBits += v
        classCount += 1
        if classCount > stride { widen() }
        return c
    }

    /// Doubles the room for classes in every state's row of transitions.
    private func widen() {
        let wider = stride * 2
        var t = [Int32](repeating: LazyDFA.unknown, count: states.count * wider)
        for s in 0..<states.count {
            for c in 0..<stride { t[s * wider + c] = transitions[s * stride + c] }
        }
        cacheBytes += (wider - stride) * states.count * 4
        transitions = t
        stride = wider
    }

    private func passes(_ predicate: Int32, _ bits: UnsafeBufferPointer<UInt64>) -> Bool {
        bits[Int(predicate) / 64] >> UInt64(predicate % 64) & 1 != 0
    }

    // MARK: States

    /// The state after `s` reads a character of class `c`; recorded as a transition.
    private func step(_ s: Int32, _ c: Int32) -> Int32 {
        let base = Int(c) * words
        let bits = Array(classBits[base..<base + words])
        let flushesBefore = flushes
        let next = step(s, bits: bits)
        // When the cache was emptied to make room, `s` is gone: nothing to record.
        if flushes == flushesBefore { transitions[Int(s) * stride + Int(c)] = next }
        return next
    }

    /// The state after `s` reads a character passing the predicates set in `bits`.
    private func step(_ s: Int32, bits: [UInt64]) -> Int32 {
        var seeds: [Int32] = []
        bits.withUnsafeBufferPointer { b in
            for pc in states[Int(s)] {
                let ins = program[Int(pc)]
                if ins.op == .character && passes(ins.a, b) { seeds.append(pc + 1) }
            }
        }
        return intern(closure(seeds: seeds, atStart: false, atEnd: false))
    }

    /// The instructions reached from `seeds` by epsilon moves that wait for a character,
    /// the match, or (not at the end) the end anchor; sorted, so equal sets are one state.
    private func closure(seeds: [Int32], atStart: Bool, atEnd: Bool) -> [Int32] {
        generation &+= 1
        if generation == 0 {
            for k in mark.indices { mark[k] = 0 }
            generation = 1
        }
        var out: [Int32] = []
        stack.removeAll(keepingCapacity: true)
        for s in seeds.reversed() { stack.append(s) }
        while let pc = stack.popLast() {
            if mark[Int(pc)] == generation { continue }
            mark[Int(pc)] = generation
            let ins = program[Int(pc)]
            switch ins.op {
            case .character, .match:
                out.append(pc)
            case .split:
                stack.append(ins.b)
                stack.append(ins.a)
            case .jump:
                stack.append(ins.a)
            case .start:
                if atStart { stack.append(pc + 1) }
            case .end:
                if atEnd { stack.append(pc + 1) } else { out.append(pc) }
            }
        }
        out.sort()
        return out
    }

    /// The state of `set`, made if new; empties the cache first when it is full.
    private func intern(_ set: [Int32]) -> Int32 {
        if let known = stateIndex[set] { return known }
        let bytes = stride * 4 + set.count * 8 + 64
        if cacheBytes + bytes > LazyDFA.cacheBudget && !states.isEmpty { empty(keepingCapacity: true) }
        let s = Int32(states.count)
        states.append(set)
        dead.append(set.isEmpty ? 1 : 0)
        stateIndex[set] = s
        acceptsAtEnd.append(-1)
        transitions += repeatElement(LazyDFA.unknown, count: stride)
        cacheBytes += bytes
        return s
    }

    /// Forgets every state; `keepingCapacity` while a match goes on and will refill it.
    private func empty(keepingCapacity keep: Bool) {
        transitions.removeAll(keepingCapacity: keep)
        states.removeAll(keepingCapacity: keep)
        dead.removeAll(keepingCapacity: keep)
        stateIndex.removeAll(keepingCapacity: keep)
        acceptsAtEnd.removeAll(keepingCapacity: keep)
        startState = LazyDFA.unknown
        cacheBytes = 0
        flushes += 1
    }

    /// Whether a text that has brought the automaton to `s` matches if it ends there.
    private func accepts(_ s: Int32) -> Bool {
        if acceptsAtEnd[Int(s)] < 0 {
            acceptsAtEnd[Int(s)] = acceptsAtEndOfText(states[Int(s)], atStart: false) ? 1 : 0
        }
        return acceptsAtEnd[Int(s)] == 1
    }

    private func acceptsEmptyText() -> Bool {
        acceptsAtEndOfText(states[Int(startState)], atStart: true)
    }

    private func acceptsAtEndOfText(_ set: [Int32], atStart: Bool) -> Bool {
        var seeds: [Int32] = []
        for pc in set {
            switch program[Int(pc)].op {
            case .match: return true
            case .end: seeds.append(pc + 1)
            default: break
            }
        }
        return closure(seeds: seeds, atStart: atStart, atEnd: true).contains { program[Int($0)].op == .match }
    }
}
