/// Short ASCII strings made straight from their bytes.
///
/// Why: a keystroke request carries three or four short strings (the field, the text, the
/// id's literal) and every edit of a short text makes a new one; `String(decoding:as:)`
/// validates bytes the caller has just checked. A Swift string of at most 15 bytes on a
/// 64-bit platform is held inline in its two words: the bytes in order, the count and an
/// "ASCII, small, immortal" flag nibble in the top byte, which can be written directly.
///
/// The layout is the standard library's, not an API, so it is checked against string
/// literals (`layoutHolds`, comparing bits); where it does not hold, or for a longer
/// string, the library builds the string. A test holds every length to the library's own.
public enum ShortASCII {
    /// The most bytes a string holds inline.
    public static let capacity = 15

    /// `count` bytes at `p`, every one below 0x80 (the caller has checked), as a string.
    @inlinable
    public static func string(_ p: UnsafePointer<UInt8>, count: Int) -> String {
        guard count <= capacity else { return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self) }
        let (low, high) = SWAR.loadPadded(p, count: count)
        return string(low: low, high: high, count: count)
    }

    /// The string of `count` <= `capacity` ASCII bytes held in `low` and `high` (the bytes
    /// in order, zero beyond `count`), as `words` lays them out.
    @inlinable
    public static func string(low: UInt64, high: UInt64, count: Int) -> String {
        layoutHolds ? inline(low: low, high: high, count: count, flags: 0xE0) : decoding(low: low, high: high, count: count)
    }

    /// The inline string of `count` bytes in `low` and `high` with the flag nibble `flags`
    /// (0xE0 ASCII, 0xA0 not), where the layout holds.
    @inlinable
    static func inline(low: UInt64, high: UInt64, count: Int, flags: UInt64) -> String {
        unsafeBitCast((low, high | (flags | UInt64(count)) &<< 56), to: String.self)
    }

    /// The string of those bytes made by the library, where the layout does not hold.
    @usableFromInline
    static func decoding(low: UInt64, high: UInt64, count: Int) -> String {
        var words = (low.littleEndian, high.littleEndian)
        return withUnsafeBytes(of: &words) { String(decoding: $0.prefix(count), as: UTF8.self) }
    }

    /// The byte count of an inline string's words.
    @inlinable
    public static func count(_ words: (UInt64, UInt64)) -> Int {
        Int(truncatingIfNeeded: (words.1 &>> 56) & 0x0F)
    }

    /// The two words an ASCII string of at most `capacity` bytes is held in inline: the
    /// same for equal strings however each was made (one built by appending may be held
    /// out of line; its words are made from its bytes). Nil for any other string, and
    /// where the layout does not hold. For keying short strings without hashing them.
    /// The inline cases are a few instructions where used; the rest is a call.
    @inlinable @inline(__always)
    public static func words(of s: String) -> (UInt64, UInt64)? {
        guard layoutHolds else { return nil }
        let raw = unsafeBitCast(s, to: (UInt64, UInt64).self)
        // Top nibble 0xE: inline and ASCII; 0xA: inline, not ASCII.
        switch raw.1 &>> 60 {
        case 0xE: return raw
        case 0xA: return nil
        default: return outOfLineWords(of: s)
        }
    }

    /// `words(of:)` of a string held out of line.
    @usableFromInline
    static func outOfLineWords(of s: String) -> (UInt64, UInt64)? {
        let utf8 = s.utf8
        guard utf8.count <= capacity else { return nil }
        return utf8.withContiguousStorageIfAvailable { bytes -> (UInt64, UInt64)? in
            guard let base = bytes.baseAddress else { return (0, UInt64(0xE0) &<< 56) }
            return bytes.allSatisfy({ $0 < 0x80 }) ? words(base, count: bytes.count) : nil
        } ?? nil
    }

    /// The two words of an inline ASCII string of `count` <= 15 bytes: bytes 0..<8 in the
    /// first (little-endian), bytes 8..<15 in the second, whose top byte is 0xE0 | count.
    @inlinable
    static func words(_ p: UnsafePointer<UInt8>, count: Int) -> (UInt64, UInt64) {
        let (low, high) = SWAR.loadPadded(p, count: count)
        return (low, high | UInt64(0xE0 | count) &<< 56)
    }

    /// Whether strings are laid out as `words` makes them: checked against two string
    /// literals, whose words the compiler builds by the standard library's own inlined
    /// code (a literal is the layout as compiled against; the runtime must read it so).
    /// In an optimized build the check folds to a constant, so it costs nothing where used.
    @inlinable
    static var layoutHolds: Bool {
        MemoryLayout<String>.size == 16
            && unsafeBitCast("abcdefghijklmno", to: (UInt64, UInt64).self) == (0x6867_6665_6463_6261, 0xEF6F_6E6D_6C6B_6A69)
            && unsafeBitCast("", to: (UInt64, UInt64).self) == (0, 0xE000_0000_0000_0000)
    }
}
