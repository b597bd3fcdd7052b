#if canImport(Glibc)
import Glibc
#endif
import FormdJSON

/// The `shutdown` requests in the input `formd attach` passes to the daemon, found without
/// parsing the rest: `"shutdown"` is looked for with memchr/memcmp (also across the seam of
/// two reads); only where it is the value of a `"method"` member outside any string is the
/// object around it read and parsed, for its `id`.
///
/// An unescaped `"` cannot occur inside a JSON string, so a `"method"` whose quote is not
/// preceded by a backslash is a member name, never text. The object is found by scanning
/// back from that name (at most `window` bytes of earlier input) and forward to its end (at
/// most `requestLimit` bytes); a request larger than that is not recognised.
struct ShutdownRequests {
    /// Earlier input kept for the scan back to a request's `{`.
    static let window = 4096
    /// The largest request read for its id.
    static let requestLimit = 1 << 16
    private static let value = Array(#""shutdown""#.utf8)
    private static let name = Array(#""method""#.utf8)

    /// The ids of the `shutdown` requests sent (a request with `"id":null` has `.null`).
    private(set) var ids: [JSONValue] = []
    /// Whether a `shutdown` notification (no id, so never answered) was sent.
    private(set) var notified = false
    /// The input before the current read: at least its last `window` bytes (at most twice
    /// that), contiguous.
    private var recent: [UInt8] = []
    /// A request whose end has not been read yet.
    private var pending: PendingObject? = nil

    /// Looks at the next bytes of the input.
    mutating func read(_ bytes: ArraySlice<UInt8>) {
        var start = bytes.startIndex
        if pending != nil {
            guard let end = pending!.feed(bytes) else {
                if pending!.bytes.count > Self.requestLimit { pending = nil }
                keep(bytes)
                return
            }
            record(pending!.bytes[...])
            pending = nil
            start = end
        }
        let seam = start == bytes.startIndex
            ? recent.suffix(Self.value.count - 1) + bytes.prefix(Self.value.count - 1) : []
        if Self.find(Self.value, in: seam[...]) != nil || Self.find(Self.value, in: bytes[start...]) != nil {
            // Rare (a request, or a text naming it): the read joined to the earlier input.
            let joined = recent + bytes
            let from = start == bytes.startIndex
                ? recent.count - min(recent.count, Self.value.count - 1) : recent.count + (start - bytes.startIndex)
            scan(joined, from: from)
        }
        keep(bytes)
    }

    /// Each `"method":"shutdown"` of `joined` from `from` on: its object recorded, or left
    /// pending when it goes on in the next read.
    private mutating func scan(_ joined: [UInt8], from: Int) {
        var from = from
        while pending == nil, let hit = Self.find(Self.value, in: joined[from...]) {
            from = hit + 1
            guard let key = Self.methodName(before: hit, in: joined),
                  let open = Self.objectStart(before: key, in: joined) else { continue }
            var object = PendingObject(bytes: Array(joined[open..<(hit + Self.value.count)]))
            let rest = joined[(hit + Self.value.count)...]
            if let end = object.feed(rest) {
                record(object.bytes[...])
                from = end
            } else if object.bytes.count <= Self.requestLimit {
                pending = object
            }
        }
    }

    /// Notes the request or notification in `object` when it is one for `shutdown`.
    private mutating func record(_ object: ArraySlice<UInt8>) {
        guard case .object(let message)? = try? JSONParser.parse(Array(object)),
              message["method"] == .string("shutdown") else { return }
        if let id = message["id"] { ids.append(id) } else { notified = true }
    }

    private mutating func keep(_ bytes: ArraySlice<UInt8>) {
        if bytes.count >= Self.window {
            recent = Array(bytes.suffix(Self.window))
        } else {
            recent.append(contentsOf: bytes)
            if recent.count > 2 * Self.window { recent.removeFirst(recent.count - Self.window) }
        }
    }

    /// Where the `"method"` name begins when the value at `value` follows it (JSON whitespace
    /// and `:` between) and its quote is not escaped; nil otherwise.
    private static func methodName(before value: Int, in bytes: [UInt8]) -> Int? {
        var i = skipWhitespace(back: value, in: bytes)
        guard i > 0, bytes[i - 1] == UInt8(ascii: ":") else { return nil }
        i = skipWhitespace(back: i - 1, in: bytes)
        let start = i - name.count
        guard start >= 0, bytes[start..<i].elementsEqual(name),
              start == 0 || bytes[start - 1] != UInt8(ascii: "\\") else { return nil }
        return start
    }

    private static func skipWhitespace(back end: Int, in bytes: [UInt8]) -> Int {
        var i = end
        while i > 0, isWhitespace(bytes[i - 1]) { i -= 1 }
        return i
    }

    private static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    /// The `{` that opens the object holding the member name at `key` (outside strings), read
    /// backwards; nil when it is not within `bytes`.
    private static func objectStart(before key: Int, in bytes: [UInt8]) -> Int? {
        var depth = 0
        var inString = false
        var i = key
        while i > 0 {
            i -= 1
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                var backslashes = 0
                while i - backslashes > 0, bytes[i - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
                if backslashes % 2 == 0 { inString.toggle() }
            } else if !inString {
                switch b {
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth += 1
                case UInt8(ascii: "{"):
                    if depth == 0 { return i }
                    depth -= 1
                case UInt8(ascii: "["):
                    if depth == 0 { return nil }
                    depth -= 1
                default: break
                }
            }
        }
        return nil
    }

    /// Where `needle` first occurs in `haystack` (memchr for its first byte, then memcmp).
    static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return haystack.withUnsafeBytes { h in
            needle.withUnsafeBytes { n in
                let base = h.baseAddress!
                var from = 0
                let last = h.count - n.count
                while from <= last, let hit = memchr(base + from, Int32(n[0]), last - from + 1) {
                    let offset = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(hit, n.baseAddress!, n.count) == 0 { return haystack.startIndex + offset }
                    from = offset + 1
                }
                return nil
            }
        }
    }
}

/// An object read from a point outside its strings, directly inside it, to its closing `}`.
private struct PendingObject {
    var bytes: [UInt8]
    private var depth = 0
    private var inString = false
    private var escaped = false

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Reads on through `more`; the index after the closing `}` once it is reached (the
    /// object's bytes then end with it), nil when the object goes on.
    mutating func feed(_ more: ArraySlice<UInt8>) -> Int? {
        for i in more.indices {
            let b = more[i]
            if inString {
                if escaped { escaped = false }
                else if b == UInt8(ascii: "\\") { escaped = true }
                else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 {
                    bytes.append(contentsOf: more[more.startIndex...i])
                    return i + 1
                }
                depth -= 1
            default: break
            }
        }
        bytes.append(contentsOf: more)
        return nil
    }
}
