import FormdJSON

/// Params whose values are JSON values found by key: a `ParamsReader` over a parsed object,
/// or a field spec's `SpecSlots`. Every typed read and its message is written once here, so
/// the two give the same value and the same error for the same params.
public protocol ParamsValues: ParamsSource {
    /// The value under `key`; nil when it is absent.
    func lookup(_ key: Key) -> JSONValue?
}

extension ParamsValues {
    public func has(_ key: Key) -> Bool { lookup(key) != nil }

    private func wrongType(_ key: Key, _ expected: String, _ got: JSONValue) -> ProtocolError {
        .invalidParams("\(name(key)) must be \(expected), got \(got.typeName)")
    }

    public func optionalString(_ key: Key) throws(ProtocolError) -> String? {
        guard let v = lookup(key) else { return nil }
        guard case .string(let s) = v else { throw wrongType(key, "a string", v) }
        return s
    }

    /// A key that may be given as null to clear it: absent → nil, null → .some(nil).
    public func nullableString(_ key: Key) throws(ProtocolError) -> String?? {
        guard let v = lookup(key) else { return nil }
        if case .null = v { return .some(nil) }
        guard case .string(let s) = v else { throw wrongType(key, "a string or null", v) }
        return .some(s)
    }

    public func bool(_ key: Key) throws(ProtocolError) -> Bool {
        guard let v = try optionalBool(key) else { throw .invalidParams("missing \(name(key)) (true or false)") }
        return v
    }

    public func optionalBool(_ key: Key) throws(ProtocolError) -> Bool? {
        guard let v = lookup(key) else { return nil }
        guard case .bool(let b) = v else { throw wrongType(key, "true or false", v) }
        return b
    }

    /// A non-negative integer or null (to clear). Fractions, exponents and numbers that do
    /// not fit are refused by name.
    public func nullableCount(_ key: Key) throws(ProtocolError) -> Int?? {
        guard let v = lookup(key) else { return nil }
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
    public func count(_ key: Key) throws(ProtocolError) -> Int {
        guard let n = try optionalCount(key) else { throw .invalidParams("missing \(name(key)) (a whole number from 0 up)") }
        return n
    }

    /// A required key of any type.
    public func value(_ key: Key) throws(ProtocolError) -> JSONValue {
        guard let v = lookup(key) else { throw .invalidParams("missing \(name(key))") }
        return v
    }

    /// A required key holding a string or null.
    public func stringOrNull(_ key: Key) throws(ProtocolError) -> String? {
        guard let v = try nullableString(key) else { throw .invalidParams("missing \(name(key)) (a string or null)") }
        return v
    }

    /// An optional whole number from 0 up.
    public func optionalCount(_ key: Key) throws(ProtocolError) -> Int? {
        guard let n = try nullableCount(key) else { return nil }
        guard let n else { throw .invalidParams("\(name(key)) must be a whole number from 0 up, got null") }
        return n
    }

    public func optionalObject(_ key: Key) throws(ProtocolError) -> JSONObject? {
        guard let v = lookup(key) else { return nil }
        guard case .object(let o) = v else { throw wrongType(key, "an object", v) }
        return o
    }

    public func optionalArray(_ key: Key) throws(ProtocolError) -> [JSONValue]? {
        guard let v = lookup(key) else { return nil }
        guard case .array(let a) = v else { throw wrongType(key, "an array", v) }
        return a
    }

    public func optionalStringArray(_ key: Key) throws(ProtocolError) -> [String]? {
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
