import FormdJSON

extension Envelope {
    /// A keystroke request as formd's clients write it: compact (no whitespace), strings of
    /// printable ASCII without escapes, an integer or string `id`, members in any order:
    /// `{"jsonrpc":"2.0","id":7,"method":"insertText","params":{"field":"a","text":"x"}}`.
    /// Decoded from its bytes with no parser, no value tree and no key list, in a fraction
    /// of the work of the plain way (`init(plainRequest:)`); this is the request a daemon
    /// in a keystroke loop sees a million times. Nil for any other line and for params the
    /// method refuses: the plain way then decodes it or words its error, the same as ever.
    public init?(compactKeystroke bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        guard maxDepth >= 2, let start = bytes.baseAddress else { return nil }
        var c = CompactCursor(start.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        guard c.take(UInt8(ascii: "{")) else { return nil }
        var members: UInt8 = 0
        var id: RequestID? = nil
        var method: KeystrokeMethod? = nil
        var params = ScannedParams(.insertText)
        var keys: UInt8 = 0
        repeat {
            // Each member's key is matched together with what must follow it.
            guard c.take(UInt8(ascii: "\"")), let member = c.take(oneOf: CompactWords.members) else { return nil }
            switch member {
            case 0:
                break
            case 1:
                if c.take(UInt8(ascii: "\"")) {
                    guard let value = c.plainString() else { return nil }
                    id = .string(c.string(value))
                } else {
                    guard let literal = c.integer() else { return nil }
                    id = .number(JSONNumber(uncheckedLiteral: c.string(literal)))
                }
            case 2:
                guard let i = c.take(oneOf: CompactWords.methods) else { return nil }
                method = KeystrokeMethod(rawValue: i)
            default:
                if !c.take(UInt8(ascii: "}")) {
                    repeat {
                        guard c.take(UInt8(ascii: "\"")), let i = c.take(oneOf: CompactWords.keys),
                              keys & (1 << i) == 0, let value = c.plainString() else { return nil }
                        keys |= 1 << i
                        params.set(KeystrokeMethod.Key(rawValue: i)!, value)
                    } while c.take(UInt8(ascii: ","))
                    guard c.take(UInt8(ascii: "}")) else { return nil }
                }
            }
            guard members & (1 << member) == 0 else { return nil }
            members |= 1 << member
        } while c.take(UInt8(ascii: ","))
        guard c.take(UInt8(ascii: "}")), c.isAtEnd, let method, keys & ~method.keyMask == 0 else { return nil }
        params.method = method
        guard let call = try? method.call(params) else { return nil }
        self.init(id: id, method: method.name, .success(call))
    }
}

/// What the compact decoder matches, each with the bytes that must follow it.
private enum CompactWords {
    /// The members, by bit in `Envelope(compactKeystroke:)`: jsonrpc (whose one value is
    /// matched with it), id, method (up to its value's opening quote), params (up to the
    /// object's opening brace).
    static let members = ["jsonrpc\":\"2.0\"", "id\":", "method\":\"", "params\":{"].map(CompactLiteral.init)
    /// The method names in `KeystrokeMethod` order, with their closing quote.
    static let methods = KeystrokeMethod.names.map { CompactLiteral("\($0)\"") }
    /// The params keys in `KeystrokeMethod.Key` order, up to their string value's opening quote.
    static let keys = KeystrokeMethod.Key.spellings.map { CompactLiteral("\($0)\":\"") }
}

/// Up to 16 bytes of text as two little-endian words and the masks of the bytes it has,
/// so a cursor matches it with two loads and compares instead of a call to `memcmp`.
private struct CompactLiteral {
    let count: Int
    let low: UInt64, high: UInt64
    let lowMask: UInt64, highMask: UInt64

    init(_ text: String) {
        let bytes = Array(text.utf8)
        precondition(bytes.count <= 16, "a compact literal has at most 16 bytes")
        count = bytes.count
        func word(_ range: Range<Int>) -> (UInt64, UInt64) {
            var value: UInt64 = 0, mask: UInt64 = 0
            for i in range where i < bytes.count {
                value |= UInt64(bytes[i]) << (8 * UInt64(i - range.lowerBound))
                mask |= 0xFF << (8 * UInt64(i - range.lowerBound))
            }
            return (value, mask)
        }
        (low, lowMask) = word(0..<8)
        (high, highMask) = word(8..<16)
    }
}

/// Reads the compact spelling of a request byte by byte, without whitespace.
private struct CompactCursor {
    private var p: UnsafePointer<UInt8>
    private let end: UnsafePointer<UInt8>

    init(_ start: UnsafePointer<UInt8>, count: Int) {
        p = start
        end = start + count
    }

    var isAtEnd: Bool { p == end }

    /// Steps over `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard p < end, p.pointee == byte else { return false }
        p += 1
        return true
    }

    /// Steps over the first of `literals` that comes next and gives its index. The next
    /// 16 bytes are loaded once as two words (zero past the end of the line), so trying a
    /// literal is two masked compares.
    mutating func take(oneOf literals: [CompactLiteral]) -> Int? {
        let room = end - p
        let (first, second) = SWAR.loadPadded(p, count: min(room, 16))
        for i in literals.indices {
            let literal = literals[i]
            if (first ^ literal.low) & literal.lowMask == 0, (second ^ literal.high) & literal.highMask == 0, literal.count <= room {
                p += literal.count
                return i
            }
        }
        return nil
    }

    /// A string's bytes up to its closing quote, which is stepped over: nil at a backslash
    /// (an escape), a control character, a byte beyond ASCII or the end of the line.
    mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        guard let quote = SWAR.plainStringEnd(p, end) else { return nil }
        defer { p = quote + 1 }
        return UnsafeBufferPointer(start: p, count: quote - p)
    }

    /// The text of an integer as JSON writes it (no leading zeros), if it is not the start
    /// of a fraction or an exponent.
    mutating func integer() -> UnsafeBufferPointer<UInt8>? {
        let start = p
        _ = take(UInt8(ascii: "-"))
        let first = p
        while p < end, p.pointee &- UInt8(ascii: "0") < 10 { p += 1 }
        let digits = p - first
        guard digits > 0, digits == 1 || first.pointee != UInt8(ascii: "0") else { return nil }
        if p < end, p.pointee == UInt8(ascii: ".") || p.pointee | 0x20 == UInt8(ascii: "e") { return nil }
        return UnsafeBufferPointer(start: start, count: p - start)
    }

    /// Plain ASCII bytes (as `plainString` and `integer` give them) as a string.
    func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        ShortASCII.string(bytes.baseAddress!, count: bytes.count)
    }
}
