/// Runs of bytes eight at a time: how far two byte strings agree, whether they are equal,
/// and how many UTF-8 scalars a stretch of valid UTF-8 holds.
///
/// Why: editing a long text compares the old and new text at both ends of the edit and
/// counts what changed; byte by byte that costs more than the rest of the edit.
extension SWAR {
    /// How many of the first `count` bytes of `a` and `b` are equal, from the start.
    @inlinable
    public static func commonPrefix(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Int {
        var i = 0
        while i &+ 8 <= count {
            let diff = load(a + i) ^ load(b + i)
            if diff != 0 { return i &+ diff.trailingZeroBitCount &>> 3 }
            i &+= 8
        }
        while i < count && a[i] == b[i] { i &+= 1 }
        return i
    }

    /// Whether the `count` (at least 8) bytes at `a` and `b` are equal: compared eight at a
    /// time, the last eight overlapping the ones before, without a branch per word.
    @inlinable @inline(__always)
    public static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        var differ = load(a + (count &- 8)) ^ load(b + (count &- 8))
        var i = 0
        while i < count &- 8 {
            differ |= load(a + i) ^ load(b + i)
            i &+= 8
        }
        return differ == 0
    }

    /// How many of the `count` bytes before `aEnd` and `bEnd` are equal, from the end.
    @inlinable
    public static func commonSuffix(_ aEnd: UnsafePointer<UInt8>, _ bEnd: UnsafePointer<UInt8>, count: Int) -> Int {
        var i = 0
        while i &+ 8 <= count {
            let diff = load(aEnd - i - 8) ^ load(bEnd - i - 8)
            if diff != 0 { return i &+ diff.leadingZeroBitCount &>> 3 }
            i &+= 8
        }
        while i < count && aEnd[-1 - i] == bEnd[-1 - i] { i &+= 1 }
        return i
    }

    /// High bit set in each byte of `x` that is a UTF-8 continuation byte (10xxxxxx); exact.
    @inline(__always) @inlinable
    public static func continuationBytes(_ x: UInt64) -> UInt64 {
        x & ~(x &<< 1) & highs
    }

    /// The scalars in `count` bytes of valid UTF-8 starting on a scalar boundary: the
    /// bytes that are not continuation bytes (scalars cut at the end count as whole).
    @inlinable
    public static func scalarCount(_ p: UnsafePointer<UInt8>, count: Int) -> Int {
        var continuations = 0
        var i = 0
        while i &+ 8 <= count {
            continuations &+= continuationBytes(load(p + i)).nonzeroBitCount
            i &+= 8
        }
        while i < count {
            if p[i] & 0xC0 == 0x80 { continuations &+= 1 }
            i &+= 1
        }
        return count &- continuations
    }
}
