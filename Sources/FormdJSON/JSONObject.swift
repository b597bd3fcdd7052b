/// One `"key": value` pair of a JSON object.
///
/// Why a named struct instead of a tuple: tuples cannot conform to `Equatable` or
/// `Sendable`, and `JSONObject` must be both.
public struct JSONMember: Equatable, Sendable {
    public var key: String
    public var value: JSONValue

    @inlinable
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// A JSON object as an ordered list of members.
///
/// Why not `[String: JSONValue]`: RFC 8259 allows duplicate names and leaves their
/// meaning open, so the parser must not silently pick one. Keeping members in source
/// order with duplicates lets the protocol layer reject duplicates explicitly
/// (`firstDuplicateKey`) and lets the writer reproduce key order exactly. JSON-RPC
/// objects are small (a handful of keys), so a linear scan for lookups beats hashing:
/// no hash computation, no table allocation, cache-friendly.
///
/// Keys compare with Swift `String` equality, i.e. by canonical equivalence: a composed
/// `"é"` and a decomposed `"e\u{301}"` are the same key for lookups and duplicate detection.
public struct JSONObject: Equatable, Sendable {
    /// Members in source (or insertion) order; duplicates kept.
    public var members: [JSONMember]

    @inlinable
    public init(_ members: [JSONMember] = []) {
        self.members = members
    }

    /// The value of the *first* member named `key`, or nil if there is none.
    /// First-wins is arbitrary but stable; callers that care reject duplicates first.
    @inlinable
    public subscript(key: String) -> JSONValue? {
        for member in members where member.key == key {
            return member.value
        }
        return nil
    }

    /// All keys in member order, duplicates included.
    @inlinable
    public var keys: [String] {
        members.map(\.key)
    }

    /// The first key (in source order of its *second* occurrence) that appears more than once,
    /// or nil. Lets a strict caller produce "duplicate key 'id'" without building a dictionary
    /// on every request.
    public var firstDuplicateKey: String? {
        let count = members.count
        if count < 2 { return nil }
        // Small objects (the JSON-RPC norm): quadratic compare, no allocation.
        if count <= 16 {
            for i in 1..<count {
                let key = members[i].key
                for j in 0..<i where members[j].key == key {
                    return key
                }
            }
            return nil
        }
        var seen = Set<String>(minimumCapacity: count)
        for member in members where !seen.insert(member.key).inserted {
            return member.key
        }
        return nil
    }

    /// Appends a member, even if `key` is already present (the writer emits both).
    @inlinable
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(JSONMember(key: key, value: value))
    }
}
