import FormdJSON

/// Reads one JSON object strictly: every key must be known, of the right type (the reads
/// of `ParamsValues`), and given once. Messages name the key by its path
/// (`fields[2].maxLength`) so a person can find the mistake without reading the spec.
public struct ParamsReader: ParamsValues {
    public let object: JSONObject
    /// Where this object sits, kept unformatted: only a message needs the text.
    let location: Location

    enum Location {
        /// The params of a method: "setText params".
        case params(method: String)
        /// An element of an array: "fields[2]".
        case element(of: String, Int)
        /// Any other place, already spelled out: "clientInfo".
        case path(String)

        /// The place spelt out, for messages.
        var text: String {
            switch self {
            case .params(let method): "\(method) params"
            case .element(let array, let i): "\(array)[\(i)]"
            case .path(let p): p
            }
        }
    }

    /// Where this object sits, for messages: "setText params", "fields[2]".
    public var path: String { location.text }

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

    /// The first member named `key`.
    public func lookup(_ key: String) -> JSONValue? { object[key] }
}
