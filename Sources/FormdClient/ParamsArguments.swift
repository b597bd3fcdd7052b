import FormdJSON

/// The params of `formd call` from its command line: one JSON object, or httpie-style
/// `KEY=STRING` and `KEY:=JSON` pairs (`field=email text='a b' enabled:=false`).
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
            let text = String(arg[arg.index(after: equals)...])
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
}
