import FormdJSON

/// Reads one JSON object strictly: every key must be known, of the right type, and
/// given once. Messages name the key by its path (`fields[2].maxLength`) so a person can
/// find the mistake without reading the spec.
public struct ParamsReader: ParamsSource {
    public let object: JSONObject
    /// Where this object sits, kept unformatted: only a message needs the text.
    private let location: Location

    enum Location {
        /// The params of a method: "setText params".
        case params(method: String)
        /// Any other place, already spelled out: "fields[2]".
        case path(String)
    }

    /// Where this object sits, for messages: "setText params", "fields[2]".
    public var path: String {
        switch location {
        case .params(let method): "\(method) params"
        case .path(let p): p
        }
    }

    public init(_ object: JSONObject, path: String, allowed: [String]) throws(ProtocolError) {
        try self.init(object, at: .path(path), allowed: allowed)
    }

    /// Fails on a duplicate key or on a key outside `allowed`.
    init(_ object: JSONObject, at location: Location, allowed: [String]) throws(ProtocolError) {
        self.location = location
        self.object = object
        if let dup = object.firstDuplicateKey {
            throw .invalidParams("duplicate key \"\(dup)\" in \(path)")
        }
        for member in object.members where !allowed.contains(member.key) {
            let hint = allowed.isEmpty ? "it takes none" : "allowed keys: \(allowed.joined(separator: ", "))"
            throw .invalidParams("unknown key \"\(member.key)\" in \(path)\(NameSuggestion.clause(for: member.key, in: allowed)); \(hint)")
        }
    }

    public static func spelling(of key: String) -> String { key }

    public func has(_ key: String) -> Bool { object[key] != nil }

    private func wrongType(_ key: String, _ expected: String, _ got: JSONValue) -> ProtocolError {
        .invalidParams("\(name(key)) must be \(expected), got \(got.typeName)")
    }

    public func optionalString(_ key: String) throws(ProtocolError) -> String? {
        guard let v = object[key] else { return nil }
        guard case .string(let s) = v else { throw wrongType(key, "a string", v) }
        return s
    }

    /// A key that may be given as null to clear it: absent → nil, null → .some(nil).
    public func nullableString(_ key: String) throws(ProtocolError) -> String?? {
        guard let v = object[key] else { return nil }
        if case .null = v { return .some(nil) }
        guard case .string(let s) = v else { throw wrongType(key, "a string or null", v) }
        return .some(s)
    }

    public func bool(_ key: String) throws(ProtocolError) -> Bool {
        guard let v = try optionalBool(key) else { throw .invalidParams("missing \(name(key)) (true or false)") }
        return v
    }

    public func optionalBool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let v = object[key] else { return nil }
        guard case .bool(let b) = v else { throw wrongType(key, "true or false", v) }
        return b
    }

    /// A non-negative integer or null (to clear). Fractions, exponents and numbers that do
    /// not fit are refused by name.
    public func nullableCount(_ key: String) throws(ProtocolError) -> Int?? {
        guard let v = object[key] else { return nil }
        switch v {
        case .null:
            return .some(nil)
        case .number(let n):
            guard let i = n.intValue, i >= 0 else {
                throw .invalidParams("\(name(key)) must be a whole number from 0 up, got \(n.literal)")
            }
            return .some(i)
        default:
            throw wrongType(key, "a whole number or null", v)
        }
    }

    /// A required whole number from 0 up (a position).
    public func count(_ key: String) throws(ProtocolError) -> Int {
        guard let n = try optionalCount(key) else { throw .invalidParams("missing \(name(key)) (a whole number from 0 up)") }
        return n
    }

    /// A required key of any type.
    public func value(_ key: String) throws(ProtocolError) -> JSONValue {
        guard let v = object[key] else { throw .invalidParams("missing \(name(key))") }
        return v
    }

    /// A required key holding a string or null.
    public func stringOrNull(_ key: String) throws(ProtocolError) -> String? {
        guard let v = try nullableString(key) else { throw .invalidParams("missing \(name(key)) (a string or null)") }
        return v
    }

    /// An optional whole number from 0 up.
    public func optionalCount(_ key: String) throws(ProtocolError) -> Int? {
        guard let n = try nullableCount(key) else { return nil }
        guard let n else { throw .invalidParams("\(name(key)) must be a whole number from 0 up, got null") }
        return n
    }

    public func optionalObject(_ key: String) throws(ProtocolError) -> JSONObject? {
        guard let v = object[key] else { return nil }
        guard case .object(let o) = v else { throw wrongType(key, "an object", v) }
        return o
    }

    public func optionalArray(_ key: String) throws(ProtocolError) -> [JSONValue]? {
        guard let v = object[key] else { return nil }
        guard case .array(let a) = v else { throw wrongType(key, "an array", v) }
        return a
    }

    public func optionalStringArray(_ key: String) throws(ProtocolError) -> [String]? {
        guard let a = try optionalArray(key) else { return nil }
        var out: [String] = []
        for (i, v) in a.enumerated() {
            guard case .string(let s) = v else {
                throw .invalidParams("\(name(key))[\(i)] must be a string, got \(v.typeName)")
            }
            out.append(s)
        }
        return out
    }
}
