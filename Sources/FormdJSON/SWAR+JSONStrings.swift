import CFormdStrings
import FormdBytes

/// The byte classes of JSON strings, eight bytes at a time: what a writer must escape and
/// where a string scanner must stop.
///
/// Why: string bodies are the bulk of JSON-RPC payload bytes, and both the parser and the
/// writer only need the *first* special byte of a string.
extension SWAR {
    /// Bytes a writer must escape: `"`, `\` and anything below 0x20.
    @inline(__always) @inlinable
    public static func escapeMask(_ x: UInt64) -> UInt64 {
        bytesBelow(x, 0x20) | bytesEqual(x, 0x22) | bytesEqual(x, 0x5C)
    }

    /// Bytes the parser's string fast path cannot step over: the escape set plus any
    /// non-ASCII byte (which needs UTF-8 validation).
    @inline(__always) @inlinable
    public static func stringAttentionMask(_ x: UInt64) -> UInt64 {
        escapeMask(x) | (x & highs)
    }

    /// The closing quote of a string starting at `p` (after its opening quote) if no byte
    /// before it needs attention (see `stringAttentionMask`); nil at such a byte or when
    /// `end` comes first. For a decoder that takes only plain strings. Sixteen bytes at a
    /// time where the processor compares them so (`formd_attention16`), then a word.
    @inlinable
    public static func plainStringEnd(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        #if arch(x86_64)
        var q = formd_attention16(p, end)
        #else
        var q = p
        #endif
        while end - q >= 8 {
            let mask = stringAttentionMask(load(q))
            if mask != 0 {
                q += firstFlaggedByte(mask)
                return q.pointee == UInt8(ascii: "\"") ? q : nil
            }
            q += 8
        }
        while q < end {
            let b = q.pointee
            if b == UInt8(ascii: "\"") { return q }
            if b < 0x20 || b >= 0x80 || b == UInt8(ascii: "\\") { return nil }
            q += 1
        }
        return nil
    }
}
