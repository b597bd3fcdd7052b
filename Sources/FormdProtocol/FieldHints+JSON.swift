import FormdCore
import FormdJSON

extension FieldHints {
    /// The hints of a `hints` object as given, each value kept as its compact text.
    init(_ object: JSONObject) {
        self.init(object.members.map { Member(key: $0.key, json: JSONWriter.serialize($0.value)) })
    }

    /// The hints as a value tree (for the state files). Each value's text was written from
    /// a value parsed under the input's depth limit (at most 4096), so it parses back.
    public var object: JSONObject {
        JSONObject(members.map { JSONMember(key: $0.key, value: (try? JSONParser.parse($0.json, maxDepth: 4096)) ?? .null) })
    }
}

extension JSONWriter {
    /// `hints` as an object, each value's text as it is kept.
    mutating func write(_ hints: FieldHints) {
        if hints.isEmpty { return writeRaw("{}") }
        for (i, member) in hints.members.enumerated() {
            writeRaw(i == 0 ? "{" : ",")
            writeString(member.key)
            writeRaw(":")
            writeRaw(Array(member.json.utf8))
        }
        writeRaw("}")
    }
}
