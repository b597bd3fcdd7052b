/// A field's `hints`: what renderers read (`keyboardType`, `returnKeyType`, ...), passed
/// through as given. The engine only merges them key by key and compares them, so each
/// value is kept as its compact JSON text, which the protocol layer writes as it is.
public struct FieldHints: Equatable, Sendable, ExpressibleByDictionaryLiteral {
    /// One hint: its key and its value's compact JSON text (`"\"next\""`, `"3"`, `"{}"`).
    public struct Member: Equatable, Sendable {
        public var key: String
        public var json: String

        public init(key: String, json: String) {
            self.key = key
            self.json = json
        }
    }

    /// In the order given, each key once.
    public private(set) var members: [Member]

    public init(_ members: [Member] = []) {
        self.members = members
    }

    /// Keys with their values' JSON text: `["returnKeyType": #""next""#]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        members = elements.map { Member(key: $0.0, json: $0.1) }
    }

    public var isEmpty: Bool { members.isEmpty }

    /// Members of `other` replace members with the same key; new keys are appended.
    func merging(_ other: FieldHints) -> FieldHints {
        var out = self
        for member in other.members {
            if let i = out.members.firstIndex(where: { $0.key == member.key }) {
                out.members[i].json = member.json
            } else {
                out.members.append(member)
            }
        }
        return out
    }
}
