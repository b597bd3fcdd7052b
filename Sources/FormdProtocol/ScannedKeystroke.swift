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
    /// The scan is inlined here and its result used where it is made, not handed back and
    /// copied.
    @inline(never)
    public init?(keystroke bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        guard maxDepth >= 2, let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count <= Int(UInt32.max),
              let scanned = ScannedKeystroke(start, count: bytes.count),
              let call = try? scanned.method.call(scanned.params) else { return nil }
        self.init(id: scanned.id?.requestID(inLineFrom: start), method: scanned.method.name, .success(call))
    }
}

/// Where a keystroke request's parts are in its line: found in one pass over its bytes,
/// made into strings only afterwards.
private struct ScannedKeystroke {
    /// A request's `id` as it was written.
    enum ID {
        case number(UnsafeBufferPointer<UInt8>)
        case string(ScannedString)

        /// The id, in the line that starts at `line`.
        func requestID(inLineFrom line: UnsafePointer<UInt8>) -> RequestID {
            switch self {
            case .number(let literal): .number(JSONNumber(uncheckedLiteral: ScannedString(bytes: literal, isASCII: true).string(inLineFrom: line)))
            case .string(let value): .string(value.string(inLineFrom: line))
            }
        }
    }

    var id: ID? = nil
    let method: KeystrokeMethod
    var params: ScannedParams

    /// Nil unless the line is a keystroke request whose params the method takes. The cursor
    /// is never handed to a function that is not inlined (its slow paths take and return
    /// positions), so it stays in a register.
    @inline(__always)
    init?(_ start: UnsafePointer<UInt8>, count: Int) {
        if let canonical = Self(canonical: start, count: count) {
            self = canonical
            return
        }
        var c = KeystrokeCursor(start, count: count)
        guard c.take(UInt8(ascii: "{")) else { return nil }
        var members: UInt8 = 0
        var method: KeystrokeMethod? = nil
        var params = ScannedParams(.insertText, in: start)
        repeat {
            guard let (member, opened) = c.takeMember() else { return nil }
            switch member {
            case .jsonrpc:
                guard opened || (c.take(UInt8(ascii: "\"")) && c.takeVersion()) else { return nil }
            case .id:
                guard let value = Self.id(&c) else { return nil }
                id = value
            case .method:
                guard opened || c.take(UInt8(ascii: "\"")), let name = c.takeMethod() else { return nil }
                method = name
            case .params:
                guard opened || c.take(UInt8(ascii: "{")), Self.paramsBody(&c, into: &params) else { return nil }
            }
            guard members & member.bit == 0 else { return nil }
            members |= member.bit
        } while c.take(UInt8(ascii: ","))
        guard c.take(UInt8(ascii: "}")), let method, let scanned = Self(ending: &c, method, id: id, params) else { return nil }
        self = scanned
    }

    /// The request as nearly every client writes it, compact and in the order of the
    /// JSON-RPC spec: `{"jsonrpc":"2.0","id":ID,"method":"NAME","params":{...}}`, read as
    /// a few two-word compares with no member to look up. Nil for any other line, which
    /// the general scan then reads from its start.
    @_transparent
    private init?(canonical start: UnsafePointer<UInt8>, count: Int) {
        var c = KeystrokeCursor(start, count: count)
        guard c.take(KeyLiteral("{\"", "jsonrpc", "\":\"2.0\"")), c.take(KeyLiteral(",\"", "id", "\":")), let id = Self.id(&c),
              c.take(KeyLiteral(",\"", "method", "\":\"")), let method = c.takeMethod(),
              c.take(KeyLiteral(",\"", "params", "\":{")) else { return nil }
        var params = ScannedParams(method, in: start)
        guard Self.paramsBody(&c, into: &params), c.take(UInt8(ascii: "}")) else { return nil }
        self.init(ending: &c, method, id: id, params)
    }


    /// The request once its closing brace is taken: nil unless only whitespace follows and
    /// the method takes every key given.
    @_transparent
    private init?(ending c: inout KeystrokeCursor, _ method: KeystrokeMethod, id: ID?, _ params: ScannedParams) {
        c.skipSpace()
        guard c.isAtEnd, params.present & ~method.keyMask == 0 else { return nil }
        self.id = id
        self.method = method
        self.params = params
        self.params.method = method
    }

    /// A request's `id` (after its colon): a string or an integer.
    @_transparent
    private static func id(_ c: inout KeystrokeCursor) -> ID? {
        if c.take(UInt8(ascii: "\"")) {
            guard let value = c.string() else { return nil }
            return .string(value)
        }
        guard let literal = c.integer() else { return nil }
        return .number(literal)
    }

    /// The params' members and closing brace, after the opening one: string values, each
    /// key at most once.
    @_transparent
    private static func paramsBody(_ c: inout KeystrokeCursor, into params: inout ScannedParams) -> Bool {
        if c.take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let (key, opened) = c.takeKey(), params.present & key.bit == 0,
                  opened || c.take(UInt8(ascii: "\"")), let value = c.string() else { return false }
            params.set(key, value)
        } while c.take(UInt8(ascii: ","))
        return c.take(UInt8(ascii: "}"))
    }
}

/// A request's members.
enum RequestMember: Int, CaseIterable, KeySpelling {
    case jsonrpc, id, method, params

    /// The member's bit in a set of members (`1 << rawValue`), spelt out as `Key.bit` is.
    @_transparent
    var bit: UInt8 {
        switch self {
        case .jsonrpc: 1
        case .id: 2
        case .method: 4
        case .params: 8
        }
    }

    var spelling: StaticString {
        switch self {
        case .jsonrpc: "jsonrpc"
        case .id: "id"
        case .method: "method"
        case .params: "params"
        }
    }

    /// The member whose key starts `next`, with its quotes and colon as compact JSON
    /// writes them (`"id":`) or with one space after the colon (`"id": `), and their
    /// length; where the value's opening token follows (`"method": "`, `"params":{`, all of
    /// `"jsonrpc":"2.0"`), it is taken too (`opened`), so one window reads both.
    @_transparent
    static func compact(_ next: Window) -> (RequestMember, length: Int, opened: Bool)? {
        switch next.second {
        case UInt8(ascii: "j"):
            if next.starts(with: KeyLiteral("\"", "jsonrpc", "\":\"2.0\"")) { return (.jsonrpc, 15, true) }
            if next.starts(with: KeyLiteral("\"", "jsonrpc", "\": \"2.0\"")) { return (.jsonrpc, 16, true) }
            return next.starts(with: KeyLiteral("\"", "jsonrpc", "\":")) ? (.jsonrpc, 10, false) : nil
        case UInt8(ascii: "i"):
            if next.starts(with: KeyLiteral("\"", "id", "\": ")) { return (.id, 6, false) }
            return next.starts(with: KeyLiteral("\"", "id", "\":")) ? (.id, 5, false) : nil
        case UInt8(ascii: "m"): return next.stringKey(.method)
        case UInt8(ascii: "p"): return next.key(.params, then: "\":{", "\": {")
        default: return nil
        }
    }

}

extension KeystrokeMethod {
    /// The method whose name (after its opening quote) starts `next`, with its closing
    /// quote.
    @_transparent
    static func named(_ next: Window) -> KeystrokeMethod? {
        switch next.first {
        case UInt8(ascii: "i"): next.starts(.insertText)
        case UInt8(ascii: "s"): next.starts(.setText)
        case UInt8(ascii: "d"): next.third == UInt8(ascii: "l") ? next.starts(.delete) : next.starts(.demandFocus)
        case UInt8(ascii: "p"): next.starts(.pressReturn)
        default: nil
        }
    }
}

extension KeystrokeMethod.Key: KeySpelling {
    /// The key that starts `next`, with its quotes and colon as compact JSON writes them
    /// (`"text":`) or with one space after the colon, and its length; with its value's
    /// opening quote where it follows (`opened`).
    @_transparent
    static func compact(_ next: Window) -> (KeystrokeMethod.Key, length: Int, opened: Bool)? {
        switch next.second {
        case UInt8(ascii: "f"): next.third == UInt8(ascii: "i") ? next.stringKey(.field) : next.stringKey(.form)
        case UInt8(ascii: "t"): next.stringKey(.text)
        case UInt8(ascii: "d"): next.third == UInt8(ascii: "i") ? next.stringKey(.direction) : next.stringKey(.demand)
        case UInt8(ascii: "u"): next.stringKey(.unit)
        default: nil
        }
    }
}
