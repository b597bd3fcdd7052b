/// Literal conformances so tests and hand-written encoders can spell JSON directly:
/// `let v: JSONValue = ["a": 1, "b": [true, nil]]`.
///
/// Why the dictionary literal builds a `JSONObject` rather than a `Dictionary`:
/// a literal's written order is the order the writer emits, so expected wire output
/// in tests stays predictable and duplicate keys in a literal are kept, not collapsed.

extension JSONValue: ExpressibleByNilLiteral {
    @inlinable
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    @inlinable
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    @inlinable
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
}

extension JSONValue: ExpressibleByStringLiteral {
    @inlinable
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    @inlinable
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    @inlinable
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject()
        object.members.reserveCapacity(elements.count)
        for (key, value) in elements { object.append(key, value) }
        self = .object(object)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Same ordering rule as `JSONValue`'s dictionary literal; lets `.object(["a": 1])` read naturally.
    @inlinable
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var members: [JSONMember] = []
        members.reserveCapacity(elements.count)
        for (key, value) in elements { members.append(JSONMember(key: key, value: value)) }
        self.init(members)
    }
}
