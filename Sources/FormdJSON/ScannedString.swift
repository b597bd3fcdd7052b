import FormdBytes

/// A string value without escapes, read in place by a decoder that walks a request's bytes
/// itself: the content's bytes, validated as the parser validates them, and whether they
/// are all ASCII. It becomes the very string the parser would make only when asked.
public struct ScannedString {
    public let bytes: UnsafeBufferPointer<UInt8>
    public let isASCII: Bool

    @inlinable
    public init(bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) {
        self.bytes = bytes
        self.isASCII = isASCII
    }

    /// The string whose content starts at `p` (after its opening quote) and ends at the
    /// quote returned with it; nil at an escape, a control character, malformed UTF-8 or
    /// `end`, which the parser then reads or refuses. Plain ASCII is found a word at a
    /// time; anything else is validated by the parser's own code.
    @inlinable @inline(__always)
    public static func scan(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> (ScannedString, quote: UnsafePointer<UInt8>)? {
        // Most strings of a request end within their first word: looked at here, inline.
        var from = p
        if end - p >= 8 {
            let mask = SWAR.stringAttentionMask(SWAR.load(p))
            if mask != 0 {
                let stop = p + SWAR.firstFlaggedByte(mask)
                guard stop.pointee == UInt8(ascii: "\"") else { return scanValidating(p, end) }
                return (ScannedString(bytes: UnsafeBufferPointer(start: p, count: stop - p), isASCII: true), stop)
            }
            from = p + 8
        }
        if let quote = SWAR.plainStringEnd(from, end) {
            return (ScannedString(bytes: UnsafeBufferPointer(start: p, count: quote - p), isASCII: true), quote)
        }
        return scanValidating(p, end)
    }

    @usableFromInline
    static func scanValidating(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> (ScannedString, quote: UnsafePointer<UInt8>)? {
        var parser = ByteParser(base: p, count: end - p, maxDepth: 0)
        var ascii = true
        guard let stop = try? parser.skipStringContent(quote: 0, ascii: &ascii), stop == UInt8(ascii: "\"") else { return nil }
        return (ScannedString(bytes: UnsafeBufferPointer(start: p, count: parser.pos), isASCII: ascii), p + parser.pos)
    }

    /// The string, made as `JSONParser` makes it from the same bytes; one of up to
    /// `RecentStrings.maxBytes` bytes may be the very one made before from them.
    @inlinable
    public var string: String {
        isASCII && bytes.count <= ShortASCII.capacity ? ShortASCII.string(bytes.baseAddress!, count: bytes.count) : Self.string(validUTF8: bytes)
    }

    /// `string`, for a string within a line that starts at `line`: when the 16 bytes that
    /// end where it ends are in the line, a short one is read as those two words, shifted
    /// down, not byte by byte.
    @inlinable @inline(__always)
    public func string(inLineFrom line: UnsafePointer<UInt8>) -> String {
        let count = bytes.count
        let last = bytes.baseAddress! + count
        guard count > 0, count <= ShortASCII.capacity, last - line >= 16 else { return string }
        let (below, top) = (SWAR.load(last - 16), SWAR.load(last - 8))
        let shift = UInt64(8 &* (16 &- count))
        let (low, high) = shift >= 64 ? (top &>> (shift &- 64), 0) : (below &>> shift | top &<< (64 &- shift), top &>> shift)
        return isASCII ? ShortASCII.string(low: low, high: high, count: count) : ShortUTF8.string(low: low, high: high, count: count)
    }

    /// Out of line, so that the short ASCII case stays small where it is inlined.
    @usableFromInline @inline(never)
    static func string(validUTF8 bytes: UnsafeBufferPointer<UInt8>) -> String {
        let count = bytes.count
        if count > ShortASCII.capacity && count <= RecentStrings.maxBytes { return RecentStrings.string(validUTF8: bytes.baseAddress!, count: count) }
        return ShortUTF8.string(validUTF8: bytes.baseAddress!, count: count)
    }
}
