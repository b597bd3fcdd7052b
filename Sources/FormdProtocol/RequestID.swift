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

    func write(to w: inout JSONWriter) {
        switch self {
        case .number(let n): w.write(.number(n))
        case .string(let s): w.writeString(s)
        case .null: w.writeRaw("null")
        }
    }
}
