/// A JSON document as a plain value tree.
///
/// Why an enum instead of `Any`: the daemon's protocol layer pattern-matches on
/// requests, and an exhaustive enum makes "what if this field is an array?" a
/// compile-time question instead of a runtime cast. Every payload is a value type,
/// so a parsed request can be handed across tasks (`Sendable`) without copying.
///
/// Equality is structural and *lexical*: numbers compare by their literal text
/// (see `JSONNumber`) and objects compare member-by-member in order, because the
/// codec preserves both exactly and anything looser would hide round-trip bugs.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

extension JSONValue {
    /// The payload of a `.string`, or nil; lets callers write `guard let m = v["method"]?.stringValue`.
    @inlinable
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The payload of a `.bool`, or nil. Numbers and strings are never coerced:
    /// a JSON-RPC peer sending `"true"` has sent a string, and we say so.
    @inlinable
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The payload of a `.number`, or nil. (Addition beyond the minimal API: lets callers
    /// reach `intValue`/`doubleValue` without a switch.)
    @inlinable
    public var numberValue: JSONNumber? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The elements of an `.array`, or nil.
    @inlinable
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The members of an `.object`, or nil.
    @inlinable
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// True only for JSON `null`. JSON-RPC distinguishes an absent member from a
    /// `null` one (e.g. `"id": null`), so this is deliberately not "is missing".
    @inlinable
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The JSON type name, for error messages such as "params must be an object, got array".
    /// The names follow the JSON spec's vocabulary ("boolean", not "bool") so they read
    /// naturally to client authors.
    @inlinable
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
