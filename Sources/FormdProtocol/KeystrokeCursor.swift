import FormdBytes
import FormdJSON

/// Up to 16 bytes of text as two little-endian words and the masks of the bytes it has,
/// so a cursor matches it with two loads and compares instead of a call to `memcmp`.
/// Made from literals where they are known, it folds into constants.
struct KeyLiteral {
    let count: Int
    let low: UInt64, high: UInt64
    let lowMask: UInt64, highMask: UInt64

    /// `prefix`, `text` and `suffix`, 16 bytes at most in all. A word's loop each: the
    /// compiler folds two loops of eight into constants, not one of sixteen.
    @_transparent
    init(_ prefix: StaticString, _ text: StaticString, _ suffix: StaticString) {
        let m = prefix.utf8CodeUnitCount, n = m + text.utf8CodeUnitCount, total = n + suffix.utf8CodeUnitCount
        var low: UInt64 = 0, high: UInt64 = 0, lowMask: UInt64 = 0, highMask: UInt64 = 0
        var i = 0
        while i < total && i < 8 {
            low |= UInt64(i < m ? prefix.utf8Start[i] : i < n ? text.utf8Start[i - m] : suffix.utf8Start[i - n]) << UInt64(8 * i)
            lowMask |= 0xFF << UInt64(8 * i)
            i += 1
        }
        while i < total && i < 16 {
            high |= UInt64(i < m ? prefix.utf8Start[i] : i < n ? text.utf8Start[i - m] : suffix.utf8Start[i - n]) << UInt64(8 * (i - 8))
            highMask |= 0xFF << UInt64(8 * (i - 8))
            i += 1
        }
        count = total
        (self.low, self.high, self.lowMask, self.highMask) = (low, high, lowMask, highMask)
    }
}

/// The next 16 bytes of a line as two words, zero past its end.
struct Window {
    let low: UInt64, high: UInt64
    let room: Int

    @inline(__always)
    init(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) {
        room = end - p
        (low, high) = room >= 16 ? (SWAR.load(p), SWAR.load(p + 8)) : SWAR.loadPadded(p, count: room)
    }

    @inline(__always) var first: UInt8 { UInt8(truncatingIfNeeded: low) }
    @inline(__always) var second: UInt8 { UInt8(truncatingIfNeeded: low &>> 8) }
    @inline(__always) var third: UInt8 { UInt8(truncatingIfNeeded: low &>> 16) }

    /// Whether these bytes start with `literal`: two masked compares.
    @_transparent
    func starts(with literal: KeyLiteral) -> Bool {
        (low ^ literal.low) & literal.lowMask == 0 && (high ^ literal.high) & literal.highMask == 0 && literal.count <= room
    }

    /// `method` if these bytes start with its name and closing quote.
    @_transparent
    func starts(_ method: KeystrokeMethod) -> KeystrokeMethod? {
        starts(with: KeyLiteral("", method.spelling, "\"")) ? method : nil
    }

    /// `name` if these bytes start with it as a key (`"name":`), with the length taken: the
    /// key and its value's first byte, written right after the colon (`compact`, as `":{`)
    /// or after one space (`spaced`, as `": {`), else the key alone. For names of at most
    /// ten bytes, so the longest fits in the window.
    @_transparent
    func key<Name: KeySpelling>(_ name: Name, then compact: StaticString, _ spaced: StaticString) -> (Name, length: Int, opened: Bool)? {
        let key = name.spelling.utf8CodeUnitCount + 3
        if starts(with: KeyLiteral("\"", name.spelling, compact)) { return (name, key + 1, true) }
        if starts(with: KeyLiteral("\"", name.spelling, spaced)) { return (name, key + 2, true) }
        return starts(with: KeyLiteral("\"", name.spelling, "\":")) ? (name, key, false) : nil
    }

    /// `key(name, ...)` for a key whose value is a string: its opening quote comes with it.
    @_transparent
    func stringKey<Name: KeySpelling>(_ name: Name) -> (Name, length: Int, opened: Bool)? {
        key(name, then: "\":\"", "\": \"")
    }

}

/// A key a request's scan matches by its spelling.
protocol KeySpelling {
    var spelling: StaticString { get }
}

/// Reads a request's tokens, stepping over JSON whitespace where the caller allows it.
/// Whatever is not inlined takes and returns a position, so the cursor stays in a register.
struct KeystrokeCursor {
    private var p: UnsafePointer<UInt8>
    private let end: UnsafePointer<UInt8>

    init(_ start: UnsafePointer<UInt8>, count: Int) {
        p = start
        end = start + count
    }

    @inline(__always) var isAtEnd: Bool { p == end }

    /// Steps over `byte` if it comes next, after any whitespace (which is stepped over
    /// either way). Only a token (a bracket, a colon, a comma, a string's opening quote)
    /// is taken so, never a byte within a string.
    @inline(__always)
    mutating func take(_ byte: UInt8) -> Bool {
        guard p < end else { return false }
        if p.pointee == byte {
            p += 1
            return true
        }
        // No whitespace is above the space.
        guard p.pointee <= 0x20 else { return false }
        // The one space most writers put after a colon or a comma is looked at here.
        if p.pointee == 0x20, end - p >= 2, p[1] == byte {
            p += 2
            return true
        }
        p = Self.afterSpace(p, end)
        guard p < end, p.pointee == byte else { return false }
        p += 1
        return true
    }

    /// Steps over JSON whitespace (space, tab, line feed, carriage return); at the end of
    /// the line (where a request's last brace nearly always is) without a call.
    @inline(__always)
    mutating func skipSpace() {
        if p < end { p = Self.afterSpace(p, end) }
    }

    /// The first byte from `p` on that is not JSON whitespace. Out of line: compact
    /// requests have none, and the token checks it would be inlined into are many.
    @inline(never)
    static func afterSpace(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
        var p = p
        while p < end, p.pointee <= 0x20, p.pointee == 0x20 || p.pointee == 0x0A || p.pointee == 0x0D || p.pointee == 0x09 { p += 1 }
        return p
    }

    /// The member whose key comes next, stepped over with its colon, and with its value's
    /// opening token where `RequestMember.compact` takes it (`opened`).
    @_transparent
    mutating func takeMember() -> (RequestMember, opened: Bool)? {
        if p < end, p.pointee == 0x20 { p += 1 }
        if let (member, length, opened) = RequestMember.compact(Window(p, end)) {
            p += length
            return (member, opened)
        }
        guard let (member, after) = Self.spacedMember(p, end) else { return nil }
        p = after
        return (member, false)
    }

    /// `takeMember` where whitespace may come around the key's tokens.
    @inline(never)
    static func spacedMember(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> (RequestMember, UnsafePointer<UInt8>)? {
        var c = KeystrokeCursor(p, count: end - p)
        guard c.take(UInt8(ascii: "\"")), let member = RequestMember.allCases.first(where: { c.takeQuoted($0.spelling) }),
              c.take(UInt8(ascii: ":")) else { return nil }
        return (member, c.p)
    }

    /// Steps over `name` and a closing quote if they come next (a key, after its opening
    /// quote, on the spaced way: byte by byte).
    mutating func takeQuoted(_ name: StaticString) -> Bool {
        let n = name.utf8CodeUnitCount
        guard end - p > n, p[n] == UInt8(ascii: "\""), (0..<n).allSatisfy({ p[$0] == name.utf8Start[$0] }) else { return false }
        p += n + 1
        return true
    }

    /// Steps over `literal` if it comes next, exactly so (no whitespace is stepped over).
    @_transparent
    mutating func take(_ literal: KeyLiteral) -> Bool {
        guard Window(p, end).starts(with: literal) else { return false }
        p += literal.count
        return true
    }

    /// Steps over the one value `jsonrpc` may have, `2.0"` (after its opening quote), if it
    /// comes next.
    @_transparent
    mutating func takeVersion() -> Bool {
        guard Window(p, end).starts(with: KeyLiteral("", "2.0", "\"")) else { return false }
        p += 4
        return true
    }

    /// The method whose name comes next (after its opening quote), stepped over with its
    /// closing quote.
    @_transparent
    mutating func takeMethod() -> KeystrokeMethod? {
        guard let method = KeystrokeMethod.named(Window(p, end)) else { return nil }
        p += method.spelling.utf8CodeUnitCount + 1
        return method
    }

    /// The params key that comes next, stepped over with its colon, and with its value's
    /// opening quote where `Key.compact` takes it (`opened`).
    @_transparent
    mutating func takeKey() -> (KeystrokeMethod.Key, opened: Bool)? {
        if p < end, p.pointee == 0x20 { p += 1 }
        if let (key, length, opened) = KeystrokeMethod.Key.compact(Window(p, end)) {
            p += length
            return (key, opened)
        }
        guard let (key, after) = Self.spacedKey(p, end) else { return nil }
        p = after
        return (key, false)
    }

    /// `takeKey` where whitespace may come around the key's tokens.
    @inline(never)
    static func spacedKey(_ p: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> (KeystrokeMethod.Key, UnsafePointer<UInt8>)? {
        var c = KeystrokeCursor(p, count: end - p)
        guard c.take(UInt8(ascii: "\"")), let key = KeystrokeMethod.Key.allCases.first(where: { c.takeQuoted($0.spelling) }),
              c.take(UInt8(ascii: ":")) else { return nil }
        return (key, c.p)
    }

    /// A string's content up to its closing quote, which is stepped over: nil at an escape,
    /// a control character, malformed UTF-8 or the end of the line.
    @_transparent
    mutating func string() -> ScannedString? {
        guard let (value, quote) = ScannedString.scan(p, end) else { return nil }
        p = quote + 1
        return value
    }

    /// The text of an integer as JSON writes it (no leading zeros), if it is not the start
    /// of a fraction or an exponent.
    @_transparent
    mutating func integer() -> UnsafeBufferPointer<UInt8>? {
        let start = p
        if p < end, p.pointee == UInt8(ascii: "-") { p += 1 }
        let first = p
        while p < end, p.pointee &- UInt8(ascii: "0") < 10 { p += 1 }
        let digits = p - first
        guard digits > 0, digits == 1 || first.pointee != UInt8(ascii: "0") else { return nil }
        if p < end, p.pointee == UInt8(ascii: ".") || p.pointee | 0x20 == UInt8(ascii: "e") { return nil }
        return UnsafeBufferPointer(start: start, count: p - start)
    }
}
