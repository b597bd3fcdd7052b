#if canImport(Glibc)
import Glibc
#endif
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
            guard c.take(UInt8(ascii: "\"")), let key = c.plainString(), c.take(UInt8(ascii: ":")) else { return nil }
            let member: UInt8
            if c.matches(key, "method") {
                member = 1
                guard c.take(UInt8(ascii: "\"")), let name = c.plainString(),
                      let i = c.index(of: name, in: KeystrokeMethod.names) else { return nil }
                method = KeystrokeMethod(rawValue: i)
            } else if c.matches(key, "params") {
                member = 2
                guard c.take(UInt8(ascii: "{")) else { return nil }
                if !c.take(UInt8(ascii: "}")) {
                    repeat {
                        guard c.take(UInt8(ascii: "\"")), let name = c.plainString(),
                              let i = c.index(of: name, in: KeystrokeMethod.Key.spellings),
                              keys & (1 << i) == 0,
                              c.take(UInt8(ascii: ":")), c.take(UInt8(ascii: "\"")), let value = c.plainString() else { return nil }
                        keys |= 1 << i
                        params.set(KeystrokeMethod.Key(rawValue: i)!, c.string(value))
                    } while c.take(UInt8(ascii: ","))
                    guard c.take(UInt8(ascii: "}")) else { return nil }
                }
            } else if c.matches(key, "id") {
                member = 4
                if c.take(UInt8(ascii: "\"")) {
                    guard let value = c.plainString() else { return nil }
                    id = .string(c.string(value))
                } else {
                    guard let literal = c.integer() else { return nil }
                    id = .number(JSONNumber(uncheckedLiteral: c.string(literal)))
                }
            } else if c.matches(key, "jsonrpc") {
                member = 8
                guard c.take(UInt8(ascii: "\"")), let version = c.plainString(), c.matches(version, "2.0") else { return nil }
            } else {
                return nil
            }
            guard members & member == 0 else { return nil }
            members |= member
        } while c.take(UInt8(ascii: ","))
        guard c.take(UInt8(ascii: "}")), c.isAtEnd, let method, keys & ~method.keyMask == 0 else { return nil }
        params.method = method
        guard let call = try? method.call(params) else { return nil }
        self.init(id: id, method: method.name, .success(call))
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

    func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        bytes.count == word.utf8CodeUnitCount && memcmp(bytes.baseAddress!, word.utf8Start, bytes.count) == 0
    }

    func index(of bytes: UnsafeBufferPointer<UInt8>, in words: [StaticString]) -> Int? {
        words.firstIndex { matches(bytes, $0) }
    }

    /// Plain ASCII bytes as a string.
    func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
