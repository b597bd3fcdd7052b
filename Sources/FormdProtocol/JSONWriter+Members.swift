import FormdJSON

/// Member-by-member object writing, so encoders need no intermediate `JSONValue` tree.
/// Keys are the protocol's own ASCII names and need no escaping.
extension JSONWriter {
    /// Writes `"key":`, opening the object first or separating from the previous member.
    mutating func key(_ key: StaticString, first: Bool = false) {
        writeKey(key, first: first)
    }

    mutating func closeObject() { writeRaw("}") }

    mutating func writeBool(_ b: Bool) { b ? writeRaw("true") : writeRaw("false") }

    /// `"key":true` or `"key":false`, opening the object first or separating from the
    /// previous member: a Boolean member in one piece.
    mutating func writeBool(_ b: Bool, key: StaticString, first: Bool = false) {
        write(upTo: JSONCursor.room("{\"", key, "\":false")) { c in
            if first { c.raw("{\"") } else { c.raw(",\"") }
            c.raw(key)
            if b { c.raw("\":true") } else { c.raw("\":false") }
        }
    }

    mutating func writeOptionalString(_ s: String?) {
        if let s { writeString(s) } else { writeRaw("null") }
    }

    mutating func writeOptionalInt(_ i: Int?) {
        if let i { writeInt(i) } else { writeRaw("null") }
    }

    mutating func writeStrings(_ items: [String]) {
        writeRaw("[")
        for (i, s) in items.enumerated() {
            if i > 0 { writeRaw(",") }
            writeString(s)
        }
        writeRaw("]")
    }
}
