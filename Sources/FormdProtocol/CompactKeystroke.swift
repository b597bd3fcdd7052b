import FormdBytes
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
            guard c.take(UInt8(ascii: "\"")), let member = c.takeMember() else { return nil }
            switch member {
            case .jsonrpc:
                break
            case .id:
                if c.take(UInt8(ascii: "\"")) {
                    guard let value = c.plainString() else { return nil }
                    id = .string(c.string(value))
                } else {
                    guard let literal = c.integer() else { return nil }
                    id = .number(JSONNumber(uncheckedLiteral: c.string(literal)))
                }
            case .method:
                guard let name = c.takeMethod() else { return nil }
                method = name
            case .params:
                if !c.take(UInt8(ascii: "}")) {
                    repeat {
                        guard c.take(UInt8(ascii: "\"")), let key = c.takeKey(),
                              keys & (1 << key.rawValue) == 0, let value = c.plainString() else { return nil }
                        keys |= 1 << key.rawValue
                        params.set(key, value)
                    } while c.take(UInt8(ascii: ","))
                    guard c.take(UInt8(ascii: "}")) else { return nil }
                }
            }
            guard members & (1 << member.rawValue) == 0 else { return nil }
            members |= 1 << member.rawValue
        } while c.take(UInt8(ascii: ","))
        guard c.take(UInt8(ascii: "}")), c.isAtEnd, let method, keys & ~method.keyMask == 0 else { return nil }
        params.method = method
        guard let call = try? method.call(params) else { return nil }
        self.init(id: id, method: method.name, .success(call))
    }
}

/// A request's members, each matched with the bytes that must follow its key: jsonrpc
/// with its one value, id, method up to its value's opening quote, params up to the
/// object's opening brace.
private enum CompactMember: Int {
    case jsonrpc, id, method, params
}

/// Up to 16 bytes of text as two little-endian words and the masks of the bytes it has,
/// so a cursor matches it with two loads and compares instead of a call to `memcmp`.
/// Made from literals where they are known, it folds into constants.
private struct CompactLiteral {
    let count: Int
    let low: UInt64, high: UInt64
    let lowMask: UInt64, highMask: UInt64

    /// `text` then `suffix`, 16 bytes at most in all.
    @inline(__always)
    init(_ text: StaticString, _ suffix: StaticString) {
        let n = text.utf8CodeUnitCount, total = n + suffix.utf8CodeUnitCount
        var low: UInt64 = 0, high: UInt64 = 0, lowMask: UInt64 = 0, highMask: UInt64 = 0
        var i = 0
        while i < total && i < 16 {
            let byte = UInt64(i < n ? text.utf8Start[i] : suffix.utf8Start[i - n])
            let shift = UInt64(8 * (i & 7))
            if i < 8 {
                low |= byte << shift
                lowMask |= 0xFF << shift
            } else {
                high |= byte << shift
                highMask |= 0xFF << shift
            }
            i += 1
        }
        count = total
        (self.low, self.high, self.lowMask, self.highMask) = (low, high, lowMask, highMask)
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

    /// The member whose key comes next (after its opening quote), stepped over. Each of
    /// these takes loads the next bytes once and tries only the candidates for the first.
    mutating func takeMember() -> CompactMember? {
        let next = Window(p, end)
        switch next.first {
        case UInt8(ascii: "j"):
            // In two: a literal of more than 12 bytes is not folded into constants.
            guard next.starts(with: CompactLiteral("jsonrpc\"", ":")) else { return nil }
            p += 9
            return take(CompactLiteral("\"2.0", "\"")) ? .jsonrpc : nil
        case UInt8(ascii: "i"): return take(CompactLiteral("id\"", ":"), next) ? .id : nil
        case UInt8(ascii: "m"): return take(CompactLiteral("method\"", ":\""), next) ? .method : nil
        case UInt8(ascii: "p"): return take(CompactLiteral("params\"", ":{"), next) ? .params : nil
        default: return nil
        }
    }

    /// The method whose name comes next (after its opening quote), stepped over.
    mutating func takeMethod() -> KeystrokeMethod? {
        let next = Window(p, end)
        switch next.first {
        case UInt8(ascii: "i"): return take(.insertText, next)
        case UInt8(ascii: "s"): return take(.setText, next)
        case UInt8(ascii: "d"): return take(.delete, next) ?? take(.demandFocus, next)
        case UInt8(ascii: "p"): return take(.pressReturn, next)
        default: return nil
        }
    }

    /// The params key that comes next (after its opening quote), stepped over.
    mutating func takeKey() -> KeystrokeMethod.Key? {
        let next = Window(p, end)
        switch next.first {
        case UInt8(ascii: "f"): return take(.field, next) ?? take(.form, next)
        case UInt8(ascii: "t"): return take(.text, next)
        case UInt8(ascii: "d"): return take(.direction, next) ?? take(.demand, next)
        case UInt8(ascii: "u"): return take(.unit, next)
        default: return nil
        }
    }

    /// Steps over `method`'s name and its closing quote if `next` starts with them.
    @inline(__always)
    private mutating func take(_ method: KeystrokeMethod, _ next: Window) -> KeystrokeMethod? {
        take(CompactLiteral(method.spelling, "\""), next) ? method : nil
    }

    /// Steps over `key` up to its string value's opening quote if `next` starts with it.
    @inline(__always)
    private mutating func take(_ key: KeystrokeMethod.Key, _ next: Window) -> KeystrokeMethod.Key? {
        take(CompactLiteral(key.spelling, "\":\""), next) ? key : nil
    }

    /// Steps over `literal` if `next` (the bytes at the cursor) starts with it.
    @inline(__always)
    private mutating func take(_ literal: CompactLiteral, _ next: Window) -> Bool {
        guard next.starts(with: literal) else { return false }
        p += literal.count
        return true
    }

    /// Steps over `literal` if it comes next.
    @inline(__always)
    private mutating func take(_ literal: CompactLiteral) -> Bool {
        take(literal, Window(p, end))
    }

    /// The next 16 bytes of the line as two words, zero past its end.
    struct Window {
        let first: UInt8
        let low: UInt64, high: UInt64
        let room: Int

        @inline(__always)
        init(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) {
            room = end - p
            (low, high) = SWAR.loadPadded(p, count: min(room, 16))
            first = UInt8(truncatingIfNeeded: low)
        }

        /// Whether these bytes start with `literal`: two masked compares.
        @inline(__always)
        func starts(with literal: CompactLiteral) -> Bool {
            (low ^ literal.low) & literal.lowMask == 0 && (high ^ literal.high) & literal.highMask == 0 && literal.count <= room
        }
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
