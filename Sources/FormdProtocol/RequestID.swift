import FormdJSON

/// A request's `id`, echoed back exactly as it came (a number keeps its literal text).
public enum RequestID: Equatable, Sendable {
    case number(JSONNumber)
    case string(String)
    case null

    /// nil when the value is not a legal id (JSON-RPC allows string, number or null).
    init?(_ value: JSONValue) {
        switch value {
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .null: self = .null
        default: return nil
        }
    }

    /// The most bytes the id takes written.
    var bound: Int {
        switch self {
        case .number(let n): n.literal.utf8.count + 16
        case .string(let s): JSONCursor.bound(s)
        case .null: 4
        }
    }

    /// Writes the id through a cursor with `bound` bytes of room.
    func write(_ c: inout JSONCursor) {
        switch self {
        case .number(let n): c.number(n.literal)
        case .string(let s): c.string(s)
        case .null: c.raw("null")
        }
    }

    /// Writes `prefix` (the message's opening, up to `"id":`) and the id, in one append.
    func write(after prefix: StaticString, to w: inout JSONWriter) {
        switch self {
        case .number(let n): w.writeNumber(n, after: prefix)
        case .string(let s): w.writeString(s, after: prefix)
        case .null:
            w.writeRaw(prefix)
            w.writeRaw("null")
        }
    }
}
