import FormdBytes
#if canImport(Glibc)
import Glibc
#endif

/// Scalars that form a character on their own beside each other: between two of them
/// there is always a grapheme cluster boundary, so a text of them has as many characters
/// as scalars and an edit among them needs no cluster walking.
///
/// Why it is exact: in Unicode's grapheme cluster rules (UAX #29) every rule that joins
/// two scalars involves one of CR LF, Extend, ZWJ, SpacingMark, Prepend, a regional
/// indicator or a Hangul jamo or syllable (GB3, GB6–GB9c, GB11–GB13); the rest break
/// (GB4, GB5, GB999). The scalars here are none of those (Grapheme_Cluster_Break Other
/// or Control, not CR); a test holds every one of them to the standard library's own
/// breaking, so a toolchain whose Unicode data moves one fails it. A scalar not listed
/// is merely left to the general path.
enum SimpleScalars {
    /// Whether scalar `v` is simple. The ranges are the large runs of common scripts:
    /// Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic and Devanagari letters,
    /// punctuation and symbols, kana and CJK ideographs, full-width forms, emoji.
    @inline(__always)
    static func isSimple(_ v: UInt32) -> Bool {
        if v < 0x300 { return v != 0x0D }
        if v < 0x3030 {
            return (0x0370...0x0482).contains(v) || (0x048A...0x0590).contains(v) || (0x05C8...0x05FF).contains(v)
                || (0x061B...0x064A).contains(v) || (0x0671...0x06D5).contains(v) || (0x0904...0x0939).contains(v)
                || (0x1E00...0x200B).contains(v) || (0x200E...0x20CF).contains(v) || (0x20F1...0x2CEE).contains(v)
                || (0x2E00...0x3029).contains(v)
        }
        if v <= 0xA66E { return v <= 0x3098 || v >= 0x309B }
        return (0xE000...0xFB1D).contains(v) || (0xFB1F...0xFDFF).contains(v) || (0xFE30...0xFF9D).contains(v)
            || (0x1F200...0x1F3FA).contains(v) || (0x1F400...0x3FFFF).contains(v)
    }

    /// Whether `s` is held out of line with the library's own ASCII flag, set when it was
    /// made: then every byte is a scalar below 0x80, simple but for CR, with no pass over it.
    /// (Inline strings answer false: they are short enough to look at.)
    @inline(__always)
    static func isFlaggedASCII(_ s: String) -> Bool {
        s._guts._isContiguousASCII
    }

    /// The scalar whose UTF-8 starts at `p` (valid UTF-8) and its length in bytes.
    @inline(__always)
    static func decode(_ p: UnsafePointer<UInt8>) -> (value: UInt32, length: Int) {
        let b0 = UInt32(p[0])
        if b0 < 0x80 { return (b0, 1) }
        if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | UInt32(p[1] & 0x3F), 2) }
        if b0 < 0xF0 { return ((b0 & 0x0F) << 12 | UInt32(p[1] & 0x3F) << 6 | UInt32(p[2] & 0x3F), 3) }
        return ((b0 & 0x07) << 18 | UInt32(p[1] & 0x3F) << 12 | UInt32(p[2] & 0x3F) << 6 | UInt32(p[3] & 0x3F), 4)
    }

    /// Where the scalar ending at `end` (valid UTF-8, `end > 0`) starts.
    @inline(__always)
    static func scalarStart(_ p: UnsafePointer<UInt8>, before end: Int) -> Int {
        var i = end &- 1
        while p[i] & 0xC0 == 0x80 { i &-= 1 }
        return i
    }

    /// Whether the scalar starting at `i` is simple.
    @inline(__always)
    static func isSimple(_ p: UnsafePointer<UInt8>, at i: Int) -> Bool {
        isSimple(decode(p + i).value)
    }

    /// Whether `count` bytes of valid UTF-8 at `p` hold a regional indicator (U+1F1E6 to
    /// U+1F1FF, F0 9F 87 A6 to F0 9F 87 BF): removing one may pair others differently.
    /// Only a byte F0 starts one (and any four-byte scalar): memchr finds them.
    static func hasRegionalIndicator(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var i = 0
        while i < count, let hit = memchr(p + i, 0xF0, count &- i) {
            let j = UnsafeRawPointer(hit) - UnsafeRawPointer(p)
            if p[j &+ 1] == 0x9F && p[j &+ 2] == 0x87 && p[j &+ 3] >= 0xA6 { return true }
            i = j &+ 4
        }
        return false
    }

    /// How many bytes at `p` (of `count`) are plain ASCII without CR before anything
    /// else, a word at a time; eight words at a time `withoutCR` (known absent).
    @inline(__always)
    static func plainRun(_ p: UnsafePointer<UInt8>, _ count: Int, withoutCR: Bool) -> Int {
        var i = 0
        if withoutCR {
            while i &+ 64 <= count && isPlain(p + i, words: 8, orCR: false) { i &+= 64 }
        }
        while i &+ 8 <= count && isPlain(p + i, words: 1, orCR: !withoutCR) { i &+= 8 }
        return i
    }

    /// Whether `words` words at `p` are ASCII (without CR, with `orCR`).
    @inline(__always)
    private static func isPlain(_ p: UnsafePointer<UInt8>, words: Int, orCR: Bool = true) -> Bool {
        var flagged: UInt64 = 0
        for k in 0..<words {
            let word = SWAR.load(p + 8 &* k)
            flagged |= word & SWAR.highs | (orCR ? SWAR.bytesEqual(word, 0x0D) : 0)
        }
        return flagged == 0
    }
}
