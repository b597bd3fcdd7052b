import FormdBytes
#if canImport(Glibc)
import Glibc
#endif

/// Texts of simple scalars (`SimpleScalars`) and the marks that join them (`isMark`):
/// accented letters written with combining marks ("e\u{301}"), emoji with skin tones
/// ("👍🏽"), variation selectors. In such a text a character is a scalar that is not a
/// mark with the marks after it (and marks at the very start are one character), so
/// its boundaries are found from one scalar each, without the library's breaking.
///
/// Why it is exact: every mark here has Grapheme_Cluster_Break Extend, which joins what
/// comes before it (GB9) unless that is a control (GB4); a mark after a scalar that may be
/// a control is refused (`mayBeControl`), and so the only rule left between simple scalars
/// and marks is GB9. Neither ZWJ (GB11) nor an Indic virama (GB9c, a linker) is a mark
/// here, so no rule that looks further back applies. Tests hold every mark beside every
/// simple scalar to the standard library's breaking.
enum CombiningScalars {
    /// Whether `v` is one of the Extend scalars handled: combining diacritical marks
    /// (and their extension, supplement and half marks), marks for symbols, the kana
    /// voicing marks, variation selectors and emoji skin-tone modifiers.
    @inline(__always)
    static func isMark(_ v: UInt32) -> Bool {
        if v < 0x300 { return false }
        if v <= 0x36F { return true }
        if v < 0x1AB0 { return false }
        return (0x1AB0...0x1ACE).contains(v) || (0x1DC0...0x1DFF).contains(v) || (0x20D0...0x20F0).contains(v)
            || v == 0x3099 || v == 0x309A || (0xFE00...0xFE0F).contains(v) || (0xFE20...0xFE2F).contains(v)
            || (0x1F3FB...0x1F3FF).contains(v) || (0xE0100...0xE01EF).contains(v)
    }

    /// Whether simple scalar `v` may be a control (Grapheme_Cluster_Break Control or LF),
    /// which a mark after it would not join: C0 and C1 controls, the soft hyphen, the
    /// Arabic letter mark, general punctuation's format characters, the byte order mark.
    @inline(__always)
    static func mayBeControl(_ v: UInt32) -> Bool {
        v < 0x20 || (0x7F...0xAD).contains(v) || v == 0x061C || (0x2000...0x206F).contains(v) || v == 0xFEFF
    }

    /// Whether `v` is simple or a mark.
    @inline(__always)
    static func isKnown(_ v: UInt32) -> Bool {
        SimpleScalars.isSimple(v) || isMark(v)
    }

    /// The characters of `count` bytes of valid UTF-8 at `p` put after the scalar
    /// `previous` (nil at the text's start, where leading marks are a character of their
    /// own) if every scalar there is known and no mark follows a scalar that may be a
    /// control; else nil. Runs of plain ASCII go a word at a time, and in a long text
    /// (searched for CR once, by memchr) eight words at a time; a long text flagged ASCII
    /// (`SimpleScalars.isFlaggedASCII`) is only searched for CR.
    static func characters(_ p: UnsafePointer<UInt8>, _ count: Int, after previous: UInt32?, ascii: Bool = false) -> Int? {
        let long = count >= 64
        if long {
            if memchr(p, 0x0D, count) != nil { return nil }
            if ascii { return count }
        }
        var characters = 0
        var last = previous
        var i = 0
        while i < count {
            // A run of ASCII is looked for only where an ASCII byte is (letters of
            // several bytes come in runs too).
            if p[i] < 0x80 {
                let run = SimpleScalars.plainRun(p + i, count &- i, withoutCR: long)
                if run > 0 {
                    i &+= run
                    characters &+= run
                    last = UInt32(p[i &- 1])
                    if i == count { break }
                }
            }
            let (v, length) = SimpleScalars.decode(p + i)
            // Simple first: the commoner, and no scalar is both.
            if SimpleScalars.isSimple(v) {
                characters &+= 1
            } else if isMark(v) {
                if let last {
                    if mayBeControl(last) { return nil }
                } else {
                    characters &+= 1
                }
            } else {
                return nil
            }
            last = v
            i &+= length
        }
        return characters
    }

    /// The characters of `count` bytes of known text at `p` that starts a character (or
    /// the text): its scalars that are not marks, and the marks it starts with.
    static func characters(known p: UnsafePointer<UInt8>, count: Int) -> Int {
        var characters = 0
        var i = 0
        while i < count {
            if i &+ 8 <= count && SWAR.load(p + i) & SWAR.highs == 0 {
                i &+= 8
                characters &+= 8
                continue
            }
            let (v, length) = SimpleScalars.decode(p + i)
            if !isMark(v) || i == 0 { characters &+= 1 }
            i &+= length
        }
        return characters
    }

    /// Where the character ending at `end` (> 0, a character boundary) of valid UTF-8 at
    /// `p` starts, and its last scalar, if it is known: a simple scalar and its marks
    /// (none after a possible control) after a known scalar, or marks alone at the start.
    /// Then its start is a boundary whatever follows `end`. Else nil.
    @inline(__always)
    static func knownCharacter(_ p: UnsafePointer<UInt8>, before end: Int) -> (start: Int, last: UInt32)? {
        // An ASCII byte is a simple scalar but for CR, and an ASCII byte before it known
        // but for CR: read as bytes.
        let b = p[end &- 1]
        if b < 0x80 && b != 0x0D && (end == 1 || (p[end &- 2] < 0x80 && p[end &- 2] != 0x0D)) { return (end &- 1, UInt32(b)) }
        var j = SimpleScalars.scalarStart(p, before: end)
        let last = SimpleScalars.decode(p + j).value
        var v = last
        while isMark(v) {
            if j == 0 { return (0, last) }
            j = SimpleScalars.scalarStart(p, before: j)
            v = SimpleScalars.decode(p + j).value
        }
        guard SimpleScalars.isSimple(v), !(isMark(last) && mayBeControl(v)) else { return nil }
        if j > 0 && !isKnown(SimpleScalars.decode(p + SimpleScalars.scalarStart(p, before: j)).value) { return nil }
        return (j, last)
    }

    /// Where the character starting at `start` (< `count`, a character boundary) of valid
    /// UTF-8 at `p` ends, if it is known: a simple scalar and its marks (none after a
    /// possible control), before a simple scalar or the end. Then its end is a boundary
    /// whatever precedes `start`. Else nil.
    @inline(__always)
    static func knownCharacter(_ p: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int? {
        let (v, length) = SimpleScalars.decode(p + start)
        guard SimpleScalars.isSimple(v) else { return nil }
        var end = start &+ length
        while end < count {
            let (w, length) = SimpleScalars.decode(p + end)
            if !isMark(w) {
                guard SimpleScalars.isSimple(w) else { return nil }
                break
            }
            if mayBeControl(v) { return nil }
            end &+= length
        }
        return end
    }
}
