import FormdJSON

/// The params of `formd call` from its command line: one JSON object, or httpie-style
/// `KEY=STRING` and `KEY:=JSON` pairs (`field=email text='a b' enabled:=false`), whose value
/// may come from a file or stdin (`text=@-`) so a secret need not be on the command line, which
/// `ps` shows to every user.
///
/// Every error names the argument, says what is wrong with it and what to write instead.
enum ParamsArguments {
    /// Deep enough for any params a daemon accepts (its `--max-depth` is at most 4096).
    static let maxDepth = 4096

    /// The forms an argument can take, for the messages.
    static let forms = "<key>=<string> (text=ada), <key>:=<json> (enabled:=false), <key>=@<file> (text=@- for stdin) or one JSON object ('{\"field\":\"email\"}')"

    static func parse(_ args: [String]) throws(UsageError) -> JSONObject {
        if args.count == 1, args[0].first == "{" {
            let value: JSONValue
            do {
                value = try JSONParser.parse(args[0], maxDepth: maxDepth)
            } catch {
                throw UsageError("the params '\(args[0])' are not JSON (\(error.message)); quote the object for the shell: '{\"field\":\"email\",\"text\":\"ada\"}'")
            }
            guard case .object(let object) = value else { throw UsageError("the params must be a JSON object") }
            return object
        }
        var params = JSONObject()
        var stdinTakenBy: String? = nil
        for arg in args {
            if arg.first == "{" {
                throw UsageError("'\(arg)': give the params either as one JSON object or as <key>=<string> and <key>:=<json> pairs, not both")
            }
            guard let equals = arg.firstIndex(of: "=") else {
                let what = arg.first == "[" || arg.first == "\"" ? "the params are a JSON object, not \(arg.first == "[" ? "an array" : "a string")"
                    : "no '=' in it, so it is neither a param nor a JSON object"
                throw UsageError("'\(arg)': \(what); write \(forms)")
            }
            var key = String(arg[..<equals])
            let isJSON = key.last == ":"
            if isJSON { key.removeLast() }
            let written = String(arg[arg.index(after: equals)...])
            let form = isJSON ? "<key>:=<json>" : "<key>=<string>"
            guard !key.isEmpty else {
                throw UsageError("'\(arg)' has no key before '\(isJSON ? ":=" : "=")'; write \(form), such as \(isJSON ? "enabled:=false" : "field=email")")
            }
            guard params[key] == nil else { throw UsageError("'\(arg)': the param '\(key)' is given twice; give it once") }
            let source = try valueSource(written, of: arg)
            if source == .stdin {
                if let first = stdinTakenBy {
                    throw UsageError("'\(arg)': stdin was already read for '\(first)'; only one value can come from @-, read the others from files (\(key)=@<file>)")
                }
                stdinTakenBy = arg
            }
            let text = try valueText(source, of: arg)
            if isJSON {
                do {
                    params.append(key, try JSONParser.parse(text, maxDepth: maxDepth))
                } catch {
                    throw UsageError(notJSON(key: key, written: written, text: text, source: source, arg: arg, reason: error.message))
                }
            } else {
                params.append(key, .string(text))
            }
        }
        return params
    }

    /// Where the value after `=` comes from.
    enum Source: Equatable {
        /// As written (`\@` already made a literal `@`).
        case literal(String)
        case file(String)
        case stdin
    }

    /// `@FILE`, `@-` for stdin, `\@…` for a value that starts with `@`, else the text itself.
    private static func valueSource(_ written: String, of arg: String) throws(UsageError) -> Source {
        if written.hasPrefix("\\@") { return .literal(String(written.dropFirst())) }
        guard written.first == "@" else { return .literal(written) }
        let path = String(written.dropFirst())
        if path == "-" { return .stdin }
        guard !path.isEmpty else {
            throw UsageError("'\(arg)' names no file after '@'; write @<file> to read the value from a file, @- for stdin, or \\@ for a value that starts with @")
        }
        return .file(path)
    }

    /// The value: as written, or the file's (stdin's) contents without their final newline
    /// (`text=@- <<<"$pw"` gives `$pw`).
    private static func valueText(_ source: Source, of arg: String) throws(UsageError) -> String {
        let path: String, name: String
        switch source {
        case .literal(let text): return text
        case .stdin: (path, name) = ("/dev/stdin", "stdin")
        case .file(let file): (path, name) = (file, "'\(file)'")
        }
        switch FileContents.read(path) {
        case .failure(let failure):
            throw UsageError("'\(arg)': cannot read \(name): \(failure.reason); a value that starts with @ is read from that file (write \\@ for a literal @)")
        case .success(var bytes):
            if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw UsageError("'\(arg)': \(name) is not UTF-8 text")
            }
            return text
        }
    }

    /// What to say when the value of `KEY:=…` does not parse.
    private static func notJSON(key: String, written: String, text: String, source: Source, arg: String, reason: String) -> String {
        switch source {
        case .literal where text.isEmpty:
            return "'\(arg)' has no JSON after ':='; write \(key):=<json> (\(key):=false, \(key):=3, \(key):='\"text\"'), or \(key)= for an empty string"
        case .literal:
            return "'\(arg)': the value after ':=' is not JSON (\(reason)); write JSON, quoted for the shell (\(key):=false, \(key):='[\"a\",1]'), or \(key)=\(written) for the string"
        case .file(let file):
            return "'\(arg)': '\(file)' does not hold JSON (\(reason)); to send its text as a string write \(key)=@\(file)"
        case .stdin:
            return "'\(arg)': stdin does not hold JSON (\(reason)); to send its text as a string write \(key)=@-"
        }
    }
}
