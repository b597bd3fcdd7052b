import FormdJSON

/// The params of `formd call` from its command line: one JSON object, or httpie-style
/// `KEY=STRING` and `KEY:=JSON` pairs (`field=email text='a b' enabled:=false`), whose value
/// may come from a file or stdin (`text=@-`) so a secret need not be on the command line, which
/// `ps` shows to every user.
enum ParamsArguments {
    /// Deep enough for any params a daemon accepts (its `--max-depth` is at most 4096).
    static let maxDepth = 4096

    static func parse(_ args: [String]) throws(UsageError) -> JSONObject {
        if args.count == 1, args[0].first == "{" {
            let value: JSONValue
            do {
                value = try JSONParser.parse(args[0], maxDepth: maxDepth)
            } catch {
                throw UsageError("the params are not JSON: \(error.message)")
            }
            guard case .object(let object) = value else { throw UsageError("the params must be a JSON object") }
            return object
        }
        var params = JSONObject()
        for arg in args {
            if arg.first == "{" {
                throw UsageError("give the params either as one JSON object or as KEY=STRING and KEY:=JSON pairs, not both")
            }
            guard let equals = arg.firstIndex(of: "=") else {
                throw UsageError("expected KEY=STRING, KEY:=JSON or one JSON object, got '\(arg)'")
            }
            var key = String(arg[..<equals])
            let text = try valueText(String(arg[arg.index(after: equals)...]), of: arg)
            let value: JSONValue
            if key.last == ":" {
                key.removeLast()
                do {
                    value = try JSONParser.parse(text, maxDepth: maxDepth)
                } catch {
                    throw UsageError("the value of '\(key):=' is not JSON (\(error.message)); for a string write \(key)=\(text)")
                }
            } else {
                value = .string(text)
            }
            guard !key.isEmpty else { throw UsageError("'\(arg)' has no key before the '='") }
            guard params[key] == nil else { throw UsageError("the param '\(key)' is given twice") }
            params.append(key, value)
        }
        return params
    }

    /// The text after `=`: as written, or (`@FILE`, `@-` for stdin) the file's contents
    /// without its final newline (`text=@- <<<"$pw"` gives `$pw`); `\@` writes a leading `@`.
    private static func valueText(_ written: String, of arg: String) throws(UsageError) -> String {
        if written.hasPrefix("\\@") { return String(written.dropFirst()) }
        guard written.first == "@" else { return written }
        let path = String(written.dropFirst())
        guard !path.isEmpty else { throw UsageError("'\(arg)' names no file after '@' (@- reads stdin; \\@ is a literal @)") }
        switch FileContents.read(path == "-" ? "/dev/stdin" : path) {
        case .failure(let failure):
            throw UsageError("cannot read '\(path)' for '\(arg)': \(failure.reason) (a value that starts with @ is read from that file; write \\@ for a literal @)")
        case .success(var bytes):
            if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw UsageError("'\(path)' for '\(arg)' is not UTF-8 text")
            }
            return text
        }
    }
}
