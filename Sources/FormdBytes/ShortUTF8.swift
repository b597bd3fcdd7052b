/// Short strings of valid UTF-8 made straight from their bytes, as `ShortASCII` makes
/// ASCII ones: a string of at most 15 bytes is held inline, its top byte 0xE0 | count when
/// it is ASCII and 0xA0 | count when not.
///
/// Why: building a string from bytes validates them, which costs as much again as the
/// edit that cut them from texts already valid, at scalar boundaries. The layout is
/// checked against literals (`layoutHolds`); where it does not hold, the library builds
/// the string. A test holds random UTF-8 of every length to the library's own strings.
public enum ShortUTF8 {
    /// `count` bytes of valid UTF-8 at `p` (the caller's guarantee) as a string.
    @inlinable
    public static func string(validUTF8 p: UnsafePointer<UInt8>, count: Int) -> String {
        guard count <= ShortASCII.capacity else { return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self) }
        let (low, high) = SWAR.loadPadded(p, count: count)
        return string(low: low, high: high, count: count)
    }

    /// The string of `count` <= 15 bytes of valid UTF-8 held in `low` and `high` (the
    /// bytes in order, zero beyond `count`).
    @inlinable
    public static func string(low: UInt64, high: UInt64, count: Int) -> String {
        guard layoutHolds else { return ShortASCII.decoding(low: low, high: high, count: count) }
        return ShortASCII.inline(low: low, high: high, count: count, flags: (low | high) & SWAR.highs == 0 ? 0xE0 : 0xA0)
    }

    /// The two words of a string held inline (ASCII or not; its byte count is
    /// `ShortASCII.count`), the bytes in order and zero past the count; nil for a string
    /// held elsewhere, and where the layout does not hold.
    @inline(__always) @inlinable
    public static func inlineWords(of s: String) -> (UInt64, UInt64)? {
        guard layoutHolds else { return nil }
        let raw = unsafeBitCast(s, to: (UInt64, UInt64).self)
        // Top nibble 0xE: inline and ASCII; 0xA: inline, not ASCII.
        return (raw.1 &>> 60) | 0x4 == 0xE ? raw : nil
    }

    /// Whether inline strings are laid out so: ASCII as `ShortASCII` checks, and two
    /// literals beyond ASCII, one in normalization form C and one not (no flag tells them
    /// apart). In an optimized build the check folds to a constant.
    @inlinable
    static var layoutHolds: Bool {
        ShortASCII.layoutHolds
            && unsafeBitCast("é", to: (UInt64, UInt64).self) == (0xA9C3, 0xA200_0000_0000_0000)
            && unsafeBitCast("e\u{301}", to: (UInt64, UInt64).self) == (0x81_CC65, 0xA300_0000_0000_0000)
    }
}
