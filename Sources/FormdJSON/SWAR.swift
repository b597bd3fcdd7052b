/// Eight-bytes-at-a-time tests ("SIMD within a register") for the string scanners.
///
/// Why: string bodies are the bulk of JSON-RPC payload bytes, and both the parser and the
/// writer only need to find the *first* byte that is special (quote, backslash, control
/// character, and for the parser also non-ASCII). Testing a whole machine word per step
/// instead of one byte with three compares cuts the work on every string of 8+ bytes, and
/// the position of the first special byte falls out of the mask directly.
///
/// The masks below set the high bit of every matching byte. Borrow propagation can also
/// set it in bytes *above* a genuine match, never below one, so the lowest set bit is always
/// exact; callers only ever use the lowest one (`firstFlaggedByte`).
public enum SWAR {
    // Computed, not stored: a constant folds into the code that inlines it.
    @inlinable static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// High bit set in each byte of `x` that is zero (exact up to the lowest match).
    @inline(__always) @inlinable
    static func zeroBytes(_ x: UInt64) -> UInt64 {
        (x &- ones) & ~x & highs
    }

    /// High bit set in each byte of `x` that is below `n` (n <= 128; exact up to the lowest match).
    @inline(__always) @inlinable
    static func bytesBelow(_ x: UInt64, _ n: UInt8) -> UInt64 {
        (x &- ones &* UInt64(n)) & ~x & highs
    }

    /// High bit set in each byte of `x` equal to `byte` (exact up to the lowest match).
    @inline(__always) @inlinable
    public static func bytesEqual(_ x: UInt64, _ byte: UInt8) -> UInt64 {
        zeroBytes(x ^ (ones &* UInt64(byte)))
    }

    /// All bits of the first `count` (<= 16) bytes of two words, low word first: the
    /// bytes of a string that two words hold (`loadPadded`, `ShortASCII`).
    @inline(__always) @inlinable
    public static func masks(ofFirst count: Int) -> (UInt64, UInt64) {
        (count >= 8 ? ~0 : (1 &<< UInt64(8 &* count)) &- 1,
         count >= 16 ? ~0 : count <= 8 ? 0 : (1 &<< UInt64(8 &* (count &- 8))) &- 1)
    }

    /// Bytes a writer must escape: `"`, `\` and anything below 0x20.
    @inline(__always) @inlinable
    static func escapeMask(_ x: UInt64) -> UInt64 {
        bytesBelow(x, 0x20) | bytesEqual(x, 0x22) | bytesEqual(x, 0x5C)
    }

    /// Bytes the parser's string fast path cannot step over: the escape set plus any
    /// non-ASCII byte (which needs UTF-8 validation).
    @inline(__always) @inlinable
    static func stringAttentionMask(_ x: UInt64) -> UInt64 {
        escapeMask(x) | (x & highs)
    }

    /// Index (0...7) of the lowest flagged byte of a nonzero mask (little-endian load).
    @inline(__always) @inlinable
    static func firstFlaggedByte(_ mask: UInt64) -> Int {
        mask.trailingZeroBitCount &>> 3
    }

    /// Loads 8 bytes from any alignment, little-endian; the caller guarantees they are in bounds.
    @inline(__always) @inlinable
    public static func load(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// The `count` <= 16 bytes at `p` as two little-endian words, zero past `count`, reading
    /// no byte beyond them: bytes 8... come from the last eight, shifted down.
    @inlinable
    public static func loadPadded(_ p: UnsafePointer<UInt8>, count: Int) -> (UInt64, UInt64) {
        if count >= 16 { return (load(p), load(p + 8)) }
        if count >= 8 {
            return (load(p), count == 8 ? 0 : load(p + (count &- 8)) &>> UInt64(8 &* (16 &- count)))
        }
        var low: UInt64 = 0
        var i = 0
        while i < count {
            low |= UInt64(p[i]) &<< UInt64(8 &* i)
            i &+= 1
        }
        return (low, 0)
    }

    /// The closing quote of a string starting at `p` (after its opening quote) if no byte
    /// before it needs attention (see `stringAttentionMask`); nil at such a byte or when
    /// `end` comes first. For a decoder that takes only plain strings.
    @inlinable
    public static func plainStringEnd(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
        var q = p
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
