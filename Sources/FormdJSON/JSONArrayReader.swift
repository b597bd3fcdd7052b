/// Reads one JSON array element by element, straight from its bytes, as `JSONObjectReader`
/// reads an object: a decoder that knows the shape it expects builds its own values from
/// the elements, with no value tree for the array.
///
/// Every read that finds something else returns nil, and the caller falls back to
/// `JSONParser.parse`, which decodes or reports it. Strings are read by the parser's own
/// code, so a value read here is exactly the value the parser would have built.
public struct JSONArrayReader {
    private var parser: ByteParser
    /// The closing bracket has been read.
    public private(set) var isClosed = false
    private var expectsElement = false

    /// A reader after the opening bracket of `bytes` (whitespace before it is skipped); nil
    /// if the bytes do not start with one.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
        parser = ByteParser(base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: 1)
        parser.skipWhitespace()
        guard parser.pos < parser.end, parser.base[parser.pos] == UInt8(ascii: "[") else { return nil }
        parser.pos += 1
    }

    /// Bytes read so far, from the opening bracket's start (whitespace before it included).
    var consumed: Int { parser.pos }

    /// Where the next element starts, to come back to with `rewind(to:)`.
    public var mark: Int { parser.pos }

    /// Back to `mark`, to read the element there again another way.
    public mutating func rewind(to mark: Int) { parser.pos = mark }

    /// True when another element follows, the reader at it; false once the array is closed
    /// (`isClosed`) or for malformed input.
    public mutating func hasNext() -> Bool {
        guard !isClosed else { return false }
        parser.skipWhitespace()
        guard parser.pos < parser.end else { return false }
        if !expectsElement && parser.base[parser.pos] == UInt8(ascii: "]") {
            parser.pos += 1
            isClosed = true
            return false
        }
        return true
    }

    /// An object element, as a reader after its `{`; nil for any other value. Once the
    /// caller has read it to its end, `end(_:)` moves this reader past it.
    public func object() -> JSONObjectReader? {
        JSONObjectReader(UnsafeRawBufferPointer(start: parser.base + parser.pos, count: parser.end - parser.pos))
    }

    /// Past the object `inner` (from `object()`) has read to its `}`; false if it is not
    /// closed or what follows it is not a `,` or `]`.
    public mutating func end(_ inner: JSONObjectReader) -> Bool {
        guard inner.isClosed else { return false }
        parser.pos += inner.consumed
        return afterElement()
    }

    /// A string element; nil for any other value.
    public mutating func string() -> String? {
        guard parser.pos < parser.end, parser.base[parser.pos] == UInt8(ascii: "\""),
              let s = try? parser.parseString(), afterElement() else { return nil }
        return s
    }

    /// Any element, as the parser builds it, allowed `maxDepth` levels of nesting of its
    /// own; nil for malformed input or deeper nesting.
    public mutating func value(maxDepth: Int) -> JSONValue? {
        guard let value = parser.value(maxDepth: maxDepth) else { return nil }
        guard afterElement() else { return nil }
        return value
    }

    /// Past the `,` or `]` after an element.
    private mutating func afterElement() -> Bool {
        parser.skipWhitespace()
        guard parser.pos < parser.end else { return false }
        switch parser.base[parser.pos] {
        case UInt8(ascii: ","):
            parser.pos += 1
            expectsElement = true
            return true
        case UInt8(ascii: "]"):
            parser.pos += 1
            isClosed = true
            return true
        default:
            return false
        }
    }
}

extension ByteParser {
    /// One value at `pos` parsed with a parser of its own, allowed `maxDepth` levels of
    /// nesting; `pos` moves past it. Nil (and `pos` unmoved) for malformed input or deeper
    /// nesting.
    mutating func value(maxDepth: Int) -> JSONValue? {
        var inner = ByteParser(base: base + pos, count: end - pos, maxDepth: maxDepth)
        guard let value = try? inner.parseValue() else { return nil }
        pos += inner.pos
        return value
    }
}
