import FormdBytes

/// Reads one JSON object member by member, straight from its bytes, for a decoder that
/// knows the shape it expects: no value tree is built for the object itself, and keys can
/// be matched against a table without becoming strings.
///
/// Every read that finds something else (another shape, or input that is not valid JSON)
/// returns nil, and the caller falls back to `JSONParser.parse`, which decodes or reports
/// it. Strings and numbers are read by the parser's own code, so a value read here is
/// exactly the value the parser would have built.
public struct JSONObjectReader {
    private var parser: ByteParser
    /// The closing brace has been read.
    public private(set) var isClosed = false
    private var expectsMember = false

    /// A reader after the opening brace of `bytes` (whitespace before it is skipped); nil
    /// if the bytes do not start with one.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
        parser = ByteParser(base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: 1)
        parser.skipWhitespace()
        guard parser.pos < parser.end, parser.base[parser.pos] == UInt8(ascii: "{") else { return nil }
        parser.pos += 1
    }

    /// The index in `keys` of the next member's key, with the reader left at its value;
    /// nil once the object is closed (`isClosed`), or for a key not in the table, a key
    /// written with escapes, or malformed input.
    public mutating func nextKey(in keys: [StaticString]) -> Int? {
        guard let (start, count) = nextKeyBytes() else { return nil }
        let bytes = parser.base + start
        for (i, key) in keys.enumerated() where key.utf8CodeUnitCount == count {
            let expected = key.utf8Start
            var k = 0
            while k < count && expected[k] == bytes[k] { k += 1 }
            if k == count { return afterKey() ? i : nil }
        }
        return nil
    }

    /// The next member's key as a string, with the reader left at its value; nil once the
    /// object is closed (`isClosed`) or for malformed input.
    public mutating func nextKey() -> String? {
        guard let (start, count) = nextKeyBytes() else { return nil }
        parser.pos = start - 1
        guard let key = try? parser.parseString(), parser.pos == start + count + 1, afterKey() else { return nil }
        return key
    }

    /// A string, number, `true`, `false` or `null` value; nil for an array, an object or
    /// malformed input.
    public mutating func scalar() -> JSONValue? {
        guard parser.pos < parser.end else { return nil }
        let value: JSONValue
        switch parser.base[parser.pos] {
        case UInt8(ascii: "\""):
            guard let s = try? parser.parseString() else { return nil }
            value = .string(s)
        case UInt8(ascii: "t"):
            guard (try? parser.expectKeyword("true")) != nil else { return nil }
            value = .bool(true)
        case UInt8(ascii: "f"):
            guard (try? parser.expectKeyword("false")) != nil else { return nil }
            value = .bool(false)
        case UInt8(ascii: "n"):
            guard (try? parser.expectKeyword("null")) != nil else { return nil }
            value = .null
        default:
            guard let n = try? parser.parseNumber() else { return nil }
            value = .number(n)
        }
        // Not `afterValue() ? value : nil`: JSONValue is nil-literal expressible, so that
        // nil would be the JSON null.
        guard afterValue() else { return nil }
        return value
    }

    /// A string value; nil for any other value.
    public mutating func string() -> String? {
        guard parser.pos < parser.end, parser.base[parser.pos] == UInt8(ascii: "\""),
              let s = try? parser.parseString(), afterValue() else { return nil }
        return s
    }

    /// An object whose values are all scalars (one level deeper than this one); nil for
    /// any other value.
    public mutating func objectOfScalars() -> JSONObject? {
        let rest = UnsafeRawBufferPointer(start: parser.base + parser.pos, count: parser.end - parser.pos)
        guard var inner = JSONObjectReader(rest) else { return nil }
        var object = JSONObject()
        // Room for a typical request's params, so they are not regrown member by member.
        object.members.reserveCapacity(4)
        while let key = inner.nextKey() {
            guard let value = inner.scalar() else { return nil }
            object.append(key, value)
        }
        guard inner.isClosed else { return nil }
        parser.pos += inner.parser.pos
        guard afterValue() else { return nil }
        return object
    }

    /// An object value, as a reader after its `{`; nil for any other value. Once the caller
    /// has read it to its end, `end(_:)` moves this reader past it.
    public func object() -> JSONObjectReader? {
        JSONObjectReader(UnsafeRawBufferPointer(start: parser.base + parser.pos, count: parser.end - parser.pos))
    }

    /// Past the object `inner` (from `object()`) has read to its `}`; false if it is not
    /// closed or what follows it is not a `,` or `}`.
    public mutating func end(_ inner: JSONObjectReader) -> Bool {
        guard inner.isClosed else { return false }
        parser.pos += inner.consumed
        return afterValue()
    }

    /// An array value, as a reader after its `[`; nil for any other value. Once the caller
    /// has read it to its end, `end(_:)` moves this reader past it.
    public func array() -> JSONArrayReader? {
        JSONArrayReader(UnsafeRawBufferPointer(start: parser.base + parser.pos, count: parser.end - parser.pos))
    }

    /// Past the array `inner` (from `array()`) has read to its `]`; false if it is not
    /// closed or what follows it is not a `,` or `}`.
    public mutating func end(_ inner: JSONArrayReader) -> Bool {
        guard inner.isClosed else { return false }
        parser.pos += inner.consumed
        return afterValue()
    }

    /// Any value, as the parser builds it, allowed `maxDepth` levels of nesting of its own
    /// (an object or array value is one); nil for malformed input or deeper nesting.
    public mutating func value(maxDepth: Int) -> JSONValue? {
        guard let value = parser.value(maxDepth: maxDepth) else { return nil }
        guard afterValue() else { return nil }
        return value
    }

    /// Bytes read so far, from the opening brace's start (whitespace before it included).
    var consumed: Int { parser.pos }

    /// Only whitespace follows the closed object.
    public mutating func isAtEnd() -> Bool {
        parser.skipWhitespace()
        return isClosed && parser.pos == parser.end
    }

    /// The bytes of the next key (without its quotes) if it has no escapes or control
    /// characters; closes the object instead at a `}` where one may stand.
    private mutating func nextKeyBytes() -> (start: Int, count: Int)? {
        guard !isClosed else { return nil }
        parser.skipWhitespace()
        guard parser.pos < parser.end else { return nil }
        if !expectsMember && parser.base[parser.pos] == UInt8(ascii: "}") {
            parser.pos += 1
            isClosed = true
            return nil
        }
        guard parser.base[parser.pos] == UInt8(ascii: "\"") else { return nil }
        let start = parser.pos + 1
        var i = start
        // A word at a time to the first byte that is not plain ASCII (see `SWAR`).
        while i + 8 <= parser.end {
            let mask = SWAR.stringAttentionMask(SWAR.load(parser.base + i))
            if mask != 0 {
                i += SWAR.firstFlaggedByte(mask)
                break
            }
            i += 8
        }
        while i < parser.end {
            let b = parser.base[i]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { return nil }
            i += 1
        }
        guard i < parser.end else { return nil }
        parser.pos = i + 1
        return (start, i - start)
    }

    /// Past the `:` after a key.
    private mutating func afterKey() -> Bool {
        parser.skipWhitespace()
        guard parser.pos < parser.end, parser.base[parser.pos] == UInt8(ascii: ":") else { return false }
        parser.pos += 1
        parser.skipWhitespace()
        return true
    }

    /// Past the `,` or `}` after a value.
    private mutating func afterValue() -> Bool {
        parser.skipWhitespace()
        guard parser.pos < parser.end else { return false }
        switch parser.base[parser.pos] {
        case UInt8(ascii: ","):
            parser.pos += 1
            expectsMember = true
            return true
        case UInt8(ascii: "}"):
            parser.pos += 1
            isClosed = true
            return true
        default:
            return false
        }
    }
}
