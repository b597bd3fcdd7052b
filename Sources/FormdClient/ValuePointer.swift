import FormdJSON

/// `--get <pointer>` of `formd call` and `formd wait`: one value of what they print, picked by
/// a JSON Pointer (RFC 6901: `/values/email`, `/fields/0/text`; `~1` is a `/` in a name, `~0`
/// a `~`), printed so a script can take it as it is: a string as its raw text, anything else as
/// compact JSON. A script then needs no JSON parser to use a text that holds `"` or `\`.
struct ValuePointer {
    /// What the option was given, for messages.
    let written: String
    /// The reference tokens, unescaped.
    let tokens: [String]

    init(_ written: String) throws(UsageError) {
        self.written = written
        guard written.isEmpty || written.first == "/" else {
            throw UsageError("'--get' takes a JSON Pointer, which starts with '/' (/values/email, /fields/0/text), got '\(written)'")
        }
        var tokens: [String] = []
        for part in written.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            var token = ""
            var chars = part.makeIterator()
            while let c = chars.next() {
                guard c == "~" else { token.append(c); continue }
                switch chars.next() {
                case "0": token.append("~")
                case "1": token.append("/")
                default: throw UsageError("'--get \(written)': '~' is written ~0 in a JSON Pointer ('/' in a name is ~1)")
                }
            }
            tokens.append(token)
        }
        self.tokens = tokens
    }

    /// The value `value` holds at the pointer, or why there is none.
    func lookUp(in value: JSONValue) -> Result<JSONValue, Missing> {
        var current = value
        for (i, token) in tokens.enumerated() {
            let at = i == 0 ? "the top" : "'" + written.split(separator: "/", omittingEmptySubsequences: false)[...i].joined(separator: "/") + "'"
            switch current {
            case .object(let object):
                guard let member = object[token] else {
                    let keys = object.keys
                    let names = keys.prefix(8).map { "'\($0)'" }.joined(separator: ", ") + (keys.count > 8 ? ", …" : "")
                    return .failure(Missing(message: "nothing at \(written): \(at) has no member '\(token)' (\(keys.isEmpty ? "it is empty" : "it has \(names)"))"))
                }
                current = member
            case .array(let items):
                guard let index = Int(token), String(index) == token, index >= 0, index < items.count else {
                    return .failure(Missing(message: "nothing at \(written): \(at) is an array of \(items.count) (indexes from 0)"))
                }
                current = items[index]
            default:
                return .failure(Missing(message: "nothing at \(written): \(at) is a JSON \(current.typeName), not an object or array"))
            }
        }
        return .success(current)
    }

    /// What to print for `value`: a string's text, else compact JSON; and a newline.
    static func output(_ value: JSONValue) -> [UInt8] {
        if case .string(let text) = value { return Array(text.utf8) + [UInt8(ascii: "\n")] }
        return DaemonMessage.compactLine(value)
    }

    struct Missing: Error {
        var message: String
    }
}
