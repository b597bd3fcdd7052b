/// An integer remembered with its decimal digits, for numbers written in a sequence that
/// mostly goes up by one (the `seq` of a form's events): the next one's digits are the
/// last ones with one added to the final digit, unless that digit is a 9.
public struct DecimalCounter {
    /// The last number written and its digits as `JSONCursor.eightDigits` makes them;
    /// `count` 0 until there is one.
    @usableFromInline var value = 0
    @usableFromInline var digits: UInt64 = 0
    @usableFromInline var count = 0

    public init() {}
}

extension JSONCursor {
    /// `int(v)`, from `last`'s digits when `v` follows it; remembers `v` in `last`.
    @inline(__always) @inlinable
    public mutating func int(_ v: Int, following last: inout DecimalCounter) {
        claim(JSONCursor.intBound)
        // The final digit's byte, and whether it can take one more without a carry.
        let finalDigit = UInt64(truncatingIfNeeded: 8 &* (last.count &- 1))
        if v == last.value &+ 1 && last.count > 0 && (last.digits &>> finalDigit) & 0xFF != UInt64(UInt8(ascii: "9")) {
            last.digits &+= 1 &<< finalDigit
        } else if UInt(bitPattern: v) < 100_000_000 {
            (last.digits, last.count) = JSONCursor.eightDigits(UInt64(truncatingIfNeeded: v))
        } else {
            last.count = 0
            return longInt(v)
        }
        last.value = v
        UnsafeMutableRawPointer(p).storeBytes(of: last.digits.littleEndian, as: UInt64.self)
        p += last.count
    }
}
