/// Eight-bytes-at-a-time tests ("SIMD within a register") for the string scanners.
///
/// Why: string bodies are the bulk of JSON-RPC payload bytes, and both the parser and the
/// writer only need to find the *first* byte that is special (quote, backslash, control
/// character, and for the parser also non-ASCII). Testing a whole machine word per step
/// instead of one byte with three compares roughly quarters the work on long runs.
///
/// The classic bit tricks below may flag extra bytes *above* a genuinely flagged byte
/// (borrow propagation), never below one, and never flag a word that has no match; the
/// callers only use "is there any match in this word" and then find it byte by byte.
@usableFromInline
enum SWAR {
    @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
    @usableFromInline static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Nonzero iff some byte of `x` equals zero.
    @inline(__always) @usableFromInline
    static func hasZeroByte(_ x: UInt64) -> Bool {
        (x &- ones) & ~x & highs != 0
    }

    /// Nonzero iff some byte of `x` is less than `n` (n <= 128).
    @inline(__always) @usableFromInline
    static func hasByteLess(_ x: UInt64, than n: UInt8) -> Bool {
        (x &- ones &* UInt64(n)) & ~x & highs != 0
    }

    /// True iff the word contains `"`, `\` or a byte below 0x20: the bytes a writer must escape.
    @inline(__always) @usableFromInline
    static func needsEscape(_ x: UInt64) -> Bool {
        hasByteLess(x, than: 0x20)
            || hasZeroByte(x ^ (ones &* 0x22))
            || hasZeroByte(x ^ (ones &* 0x5C))
    }

    /// True iff the word contains a byte the parser's string fast path cannot skip:
    /// `"`, `\`, a control character, or a non-ASCII byte (which needs UTF-8 validation).
    @inline(__always) @usableFromInline
    static func needsAttentionInString(_ x: UInt64) -> Bool {
        x & highs != 0 || needsEscape(x)
    }

    /// Loads 8 bytes from any alignment; the caller guarantees they are in bounds.
    @inline(__always) @usableFromInline
    static func load(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }
}
