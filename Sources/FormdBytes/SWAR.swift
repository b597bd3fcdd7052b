/// Eight-bytes-at-a-time tests ("SIMD within a register"): find the first byte of a kind
/// in a machine word instead of comparing byte by byte.
///
/// The masks set the high bit of every matching byte. Borrow propagation can also set it
/// in bytes *above* a genuine match, never below one, so the lowest set bit is always
/// exact; callers only ever use the lowest one (`firstFlaggedByte`).
public enum SWAR {
    // Computed, not stored: a constant folds into the code that inlines it.
    @inlinable public static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable public static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// High bit set in each byte of `x` that is zero (exact up to the lowest match).
    @inline(__always) @inlinable
    public static func zeroBytes(_ x: UInt64) -> UInt64 {
        (x &- ones) & ~x & highs
    }

    /// High bit set in each byte of `x` that is below `n` (n <= 128; exact up to the lowest match).
    @inline(__always) @inlinable
    public static func bytesBelow(_ x: UInt64, _ n: UInt8) -> UInt64 {
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

    /// Index (0...7) of the lowest flagged byte of a nonzero mask (little-endian load).
    @inline(__always) @inlinable
    public static func firstFlaggedByte(_ mask: UInt64) -> Int {
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
}
