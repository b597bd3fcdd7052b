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

    /// The last scalar of `count` bytes of valid UTF-8 at `p` (or `previous` when there
    /// are none) if every scalar there is simple or a mark and no mark follows a scalar
    /// that may be a control (`previous`, the scalar before them, included); else nil.
    static func lastOfKnown(_ p: UnsafePointer<UInt8>, _ count: Int, after previous: UInt32?) -> UInt32?? {
        var last = previous
        var i = 0
        while i < count {
            let (v, length) = SimpleScalars.decode(p + i)
            if isMark(v) {
                if let last, mayBeControl(last) { return nil }
            } else if !SimpleScalars.isSimple(v) {
                return nil
            }
            last = v
            i &+= length
        }
        return .some(last)
    }

    /// Where the character starting at `i` ends, before `end`, in known text.
    @inline(__always)
    static func characterEnd(_ p: UnsafePointer<UInt8>, from i: Int, before end: Int) -> Int {
        var j = i &+ SimpleScalars.decode(p + i).length
        while j < end {
            let (v, length) = SimpleScalars.decode(p + j)
            if !isMark(v) { break }
            j &+= length
        }
        return j
    }

    /// Where the character ending at `end` starts, not before `start` (a boundary), in
    /// known text.
    @inline(__always)
    static func characterStart(_ p: UnsafePointer<UInt8>, before end: Int, from start: Int) -> Int {
        var j = SimpleScalars.scalarStart(p, before: end)
        while j > start && isMark(SimpleScalars.decode(p + j).value) { j = SimpleScalars.scalarStart(p, before: j) }
        return j
    }
}
