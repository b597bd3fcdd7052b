import FormdBytes
import FormdJSON

extension Envelope {
    /// A keystroke request (`KeystrokeMethod`) as any client writes it: members in any
    /// order, JSON whitespace between tokens, strings of any UTF-8 without escapes, an
    /// integer or string `id`:
    /// `{"jsonrpc":"2.0","id":7,"method":"insertText","params":{"field":"a","text":"x"}}`.
    /// Decoded from its bytes with no parser, no value tree and no key list, in a fraction
    /// of the work of the plain way (`init(plainRequest:)`); this is the request a daemon
    /// in a keystroke loop sees a million times. Nil for any other line and for params the
    /// method refuses: the plain way then decodes it or words its error, the same as ever.
    public init?(keystroke bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        guard maxDepth >= 2, let start = bytes.baseAddress else { return nil }
        var c = KeystrokeCursor(start.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        guard c.take(UInt8(ascii: "{")) else { return nil }
        var members: UInt8 = 0
        var id: RequestID? = nil
        var method: KeystrokeMethod? = nil
        var params = ScannedParams(.insertText)
        var keys: UInt8 = 0
        repeat {
            // Each member's key is matched with its closing quote, then the colon.
            guard c.take(UInt8(ascii: "\"")), let member = c.takeMember(), c.take(UInt8(ascii: ":")) else { return nil }
            switch member {
            case .jsonrpc:
                guard c.take(UInt8(ascii: "\"")), c.takeVersion() else { return nil }
            case .id:
                if c.take(UInt8(ascii: "\"")) {
                    guard let value = c.string() else { return nil }
                    id = .string(value.string)
                } else {
                    guard let literal = c.integer() else { return nil }
                    id = .number(JSONNumber(uncheckedLiteral: ShortASCII.string(literal.baseAddress!, count: literal.count)))
                }
            case .method:
                guard c.take(UInt8(ascii: "\"")), let name = c.takeMethod() else { return nil }
                method = name
            case .params:
                guard c.take(UInt8(ascii: "{")) else { return nil }
                if !c.take(UInt8(ascii: "}")) {
                    repeat {
                        guard c.take(UInt8(ascii: "\"")), let key = c.takeKey(), keys & (1 << key.rawValue) == 0,
                              c.take(UInt8(ascii: ":")), c.take(UInt8(ascii: "\"")), let value = c.string() else { return nil }
                        keys |= 1 << key.rawValue
                        params.set(key, value)
                    } while c.take(UInt8(ascii: ","))
                    guard c.take(UInt8(ascii: "}")) else { return nil }
                }
            }
            guard members & (1 << member.rawValue) == 0 else { return nil }
            members |= 1 << member.rawValue
        } while c.take(UInt8(ascii: ","))
        guard c.take(UInt8(ascii: "}")) else { return nil }
        c.skipSpace()
        guard c.isAtEnd, let method, keys & ~method.keyMask == 0 else { return nil }
        params.method = method
        guard let call = try? method.call(params) else { return nil }
        self.init(id: id, method: method.name, .success(call))
    }
}

/// A request's members.
private enum RequestMember: Int {
    case jsonrpc, id, method, params
}

/// Up to 16 bytes of text as two little-endian words and the masks of the bytes it has,
/// so a cursor matches it with two loads and compares instead of a call to `memcmp`.
/// Made from literals where they are known, it folds into constants.
private struct KeyLiteral {
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

/// Reads a request's tokens, stepping over JSON whitespace where the caller allows it.
private struct KeystrokeCursor {
    private var p: UnsafePointer<UInt8>
    private let end: UnsafePointer<UInt8>

    init(_ start: UnsafePointer<UInt8>, count: Int) {
        p = start
        end = start + count
    }

    var isAtEnd: Bool { p == end }

    /// Steps over `byte` if it comes next, after any whitespace (which is stepped over
    /// either way). Only a token (a bracket, a colon, a comma, a string's opening quote)
    /// is taken so, never a byte within a string.
    @inline(__always)
    mutating func take(_ byte: UInt8) -> Bool {
        if p < end, p.pointee == byte {
            p += 1
            return true
        }
        skipSpace()
        guard p < end, p.pointee == byte else { return false }
        p += 1
        return true
    }

    /// Steps over JSON whitespace (space, tab, line feed, carriage return).
    @inline(__always)
    mutating func skipSpace() {
        while p < end, p.pointee <= 0x20, p.pointee == 0x20 || p.pointee == 0x0A || p.pointee == 0x0D || p.pointee == 0x09 { p += 1 }
    }

    /// The member whose key comes next (after its opening quote), stepped over with its
    /// closing quote. Each of these takes loads the next bytes once and tries only the
    /// candidates for the first.
    mutating func takeMember() -> RequestMember? {
        let next = Window(p, end)
        switch next.first {
        case UInt8(ascii: "j"): return take(KeyLiteral("jsonrpc", "\""), next) ? .jsonrpc : nil
        case UInt8(ascii: "i"): return take(KeyLiteral("id", "\""), next) ? .id : nil
        case UInt8(ascii: "m"): return take(KeyLiteral("method", "\""), next) ? .method : nil
        case UInt8(ascii: "p"): return take(KeyLiteral("params", "\""), next) ? .params : nil
        default: return nil
        }
    }

    /// Steps over the one value `jsonrpc` may have, `2.0"` (after its opening quote), if it
    /// comes next.
    @inline(__always)
    mutating func takeVersion() -> Bool {
        take(KeyLiteral("2.0", "\""))
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

    /// The params key that comes next (after its opening quote), stepped over with its
    /// closing quote.
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
        take(KeyLiteral(method.spelling, "\""), next) ? method : nil
    }

    /// Steps over `key` and its closing quote if `next` starts with them.
    @inline(__always)
    private mutating func take(_ key: KeystrokeMethod.Key, _ next: Window) -> KeystrokeMethod.Key? {
        take(KeyLiteral(key.spelling, "\""), next) ? key : nil
    }

    /// Steps over `literal` if `next` (the bytes at the cursor) starts with it.
    @inline(__always)
    private mutating func take(_ literal: KeyLiteral, _ next: Window) -> Bool {
        guard next.starts(with: literal) else { return false }
        p += literal.count
        return true
    }

    /// Steps over `literal` if it comes next.
    @inline(__always)
    private mutating func take(_ literal: KeyLiteral) -> Bool {
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
        func starts(with literal: KeyLiteral) -> Bool {
            (low ^ literal.low) & literal.lowMask == 0 && (high ^ literal.high) & literal.highMask == 0 && literal.count <= room
        }
    }

    /// A string's content up to its closing quote, which is stepped over: nil at an escape,
    /// a control character, malformed UTF-8 or the end of the line.
    mutating func string() -> ScannedString? {
        guard let (value, quote) = ScannedString.scan(p, end) else { return nil }
        p = quote + 1
        return value
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
}
