import FormdJSON

/// How the submitted values are printed on stdout.
enum OutputFormat: String, CaseIterable {
    /// One compact JSON object, field id → text, in form order, and a newline.
    case json
    /// One `NAME='value'` line per field, shell-quoted, for `eval "$(formd tui …)"`.
    case env

    /// The bytes for stdout. `values` is the `values` object of a `submit` result.
    func format(_ values: JSONObject, prefix: String = "") -> [UInt8] {
        switch self {
        case .json:
            var w = JSONWriter()
            w.write(.object(values))
            w.writeRaw("\n")
            return w.bytes
        case .env:
            var out = ""
            for m in values.members {
                out += OutputFormat.variableName(prefix + m.key) + "=" + OutputFormat.shellQuoted(m.value.stringValue ?? "") + "\n"
            }
            return Array(out.utf8)
        }
    }

    /// Two field ids that would be the same variable (`first-name`, `first_name`): `eval`
    /// would keep only the last value, so `--output env` refuses such a form up front.
    static func clash(among ids: [String], prefix: String) -> (first: String, second: String, name: String)? {
        var seen: [String: String] = [:]
        for id in ids {
            let name = variableName(prefix + id)
            if let first = seen[name] { return (first, id, name) }
            seen[name] = id
        }
        return nil
    }

    /// A POSIX shell variable name for a field id: letters, digits and `_`, anything else
    /// becomes `_`, and a leading digit gets a `_` in front (`first-name` → `first_name`,
    /// `2fa` → `_2fa`).
    static func variableName(_ id: String) -> String {
        var name = ""
        for u in id.unicodeScalars {
            let ok = (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || (u >= "0" && u <= "9") || u == "_"
            name.unicodeScalars.append(ok ? u : "_")
        }
        if name.isEmpty || name.unicodeScalars.first!.properties.numericType != nil { name = "_" + name }
        return name
    }

    /// `value` in single quotes, each `'` written as `'\''`: safe for any text in every
    /// POSIX shell (newlines included). NUL cannot be held by a shell variable and is
    /// dropped.
    static func shellQuoted(_ value: String) -> String {
        var out = "'"
        for u in value.unicodeScalars {
            switch u {
            case "'": out += "'\\''"
            case "\u{0}": continue
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "'"
    }
}
