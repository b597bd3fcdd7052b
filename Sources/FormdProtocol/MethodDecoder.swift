import FormdCore
import FormdJSON

/// Turns a method name and its params into a `Call`, checking every key.
///
/// The table is the protocol's list of methods: one entry per method with the keys it
/// accepts, so "unknown key" messages can list the allowed ones.
public enum MethodDecoder {
    public static let methods = [
        "initialize", "shutdown", "defineForm", "addField", "removeField", "configureField",
        "setText", "insertText", "delete", "select", "moveCaret", "editAction", "undo", "redo", "pressReturn", "demandFocus", "focusNext", "focusPrevious",
        "setEnabled", "setSecure", "setRevealed", "getState", "validate", "submit", "reset",
        "subscribe", "unsubscribe",
    ]

    public static func decode(method: String, params: JSONObject) throws(ProtocolError) -> Call {
        // Formatted only when a message needs it: every request would pay for it otherwise.
        var path: String { "\(method) params" }
        func reader(_ keys: String...) throws(ProtocolError) -> ParamsReader {
            try reader(keys)
        }
        func reader(_ keys: [String]) throws(ProtocolError) -> ParamsReader {
            try ParamsReader(params, at: .params(method: method), allowed: keys)
        }
        func form(_ r: ParamsReader, _ command: FormCommand) throws(ProtocolError) -> Call {
            .form(try r.optionalString("form") ?? FormEngine.defaultForm, command)
        }
        /// The command `build` makes, or, when one of its values fails a value check, a call
        /// that looks up the form (unless `lookups` is nil: the command creates it) and the
        /// fields named by the `lookups` keys before answering that check's error.
        func checked(_ r: ParamsReader, lookups: [String]?,
                     _ build: () throws(ProtocolError) -> FormCommand) throws(ProtocolError) -> Call {
            do {
                return try form(r, build())
            } catch where error.isValueCheck {
                var fields: [String] = []
                for key in lookups ?? [] {
                    if let id = try r.optionalString(key) { fields.append(id) }
                }
                let name = try r.optionalString("form") ?? FormEngine.defaultForm
                guard lookups != nil else { throw error }
                return .refused(form: name, fields: fields, error)
            }
        }
        if let keystroke = KeystrokeMethod(name: method) {
            return try keystroke.call(ParsedKeystrokeParams(reader: reader(keystroke.keyNames)))
        }
        switch method {
        case "select":
            let r = try reader("form", "field", "start", "end")
            return try form(r, .select(field: r.optionalString("field"), start: r.count("start"), end: r.count("end")))
        case "moveCaret":
            let r = try reader("form", "field", "to", "extend")
            return try form(r, .moveCaret(field: r.optionalString("field"), to: r.requiredEnum("to", CaretTarget.self),
                                          extend: r.optionalBool("extend") ?? false))
        case "editAction":
            let r = try reader("form", "field", "action", "text")
            let action = try r.requiredEnum("action", EditAction.self)
            let text = try r.optionalString("text")
            return try checked(r, lookups: ["field"]) { () throws(ProtocolError) in
                if action == .paste && text == nil { throw .valueCheck(.invalidParams("missing \"text\" in \(path): paste inserts the text the client takes from its clipboard")) }
                if action != .paste && text != nil { throw .valueCheck(.invalidParams("\"text\" in \(path) goes only with \"action\": \"paste\"")) }
                return .editAction(field: try r.optionalString("field"), action: action, text: text)
            }
        case "undo":
            let r = try reader("form", "field")
            return try form(r, .undo(field: r.optionalString("field")))
        case "redo":
            let r = try reader("form", "field")
            return try form(r, .redo(field: r.optionalString("field")))
        case "focusNext":
            return try form(reader("form"), .focusNext)
        case "focusPrevious":
            return try form(reader("form"), .focusPrevious)
        case "initialize":
            // `form` is accepted as on every method; the daemon-wide calls ignore it.
            let r = try reader("form", "clientInfo", "positionEncoding", "textSync", "errorNotifications")
            _ = try r.optionalString("form")
            var name: String? = nil
            if let info = try r.optionalObject("clientInfo") {
                let c = try ParamsReader(info, path: "clientInfo", allowed: ["name", "version"])
                _ = try c.optionalString("version")
                name = try c.optionalString("name")
            }
            return .initialize(clientName: name, positionEncoding: try r.optionalEnum("positionEncoding", PositionEncoding.self),
                               textSync: try r.optionalEnum("textSync", TextSync.self),
                               errorNotifications: try r.optionalBool("errorNotifications"))
        case "shutdown":
            _ = try reader("form").optionalString("form")
            return .shutdown
        case "subscribe", "unsubscribe":
            // Daemon-wide like initialize: `form` is accepted and ignored; `forms` names them.
            let r = try reader("form", "forms", "fields", "events")
            _ = try r.optionalString("form")
            let rule = SubscriptionRule(forms: try r.optionalStringArray("forms").map(Set.init),
                                        fields: try r.optionalStringArray("fields").map(Set.init),
                                        events: try eventNames(r))
            return method == "subscribe" ? .subscribe(rule) : .unsubscribe(rule)
        case "defineForm":
            let r = try reader("form", "fields", "presets")
            guard let fields = try r.optionalArray("fields") else {
                throw .invalidParams("missing \"fields\" in \(path) (an array of field specs)")
            }
            return try checked(r, lookups: nil) { () throws(ProtocolError) in
                .defineForm(fields: try FieldSpecDecoder.fields(fields, path: "fields"),
                            presets: try FieldSpecDecoder.presets(r.optionalObject("presets"), path: "presets"))
            }
        case "addField":
            let r = try reader("form", "field", "after")
            guard let spec = r.object["field"] else {
                throw .invalidParams("missing \"field\" in \(path) (a field spec)")
            }
            return try checked(r, lookups: ["after"]) { () throws(ProtocolError) in
                .addField(try FieldSpecDecoder.spec(spec, path: "field"), after: try r.optionalString("after"))
            }
        case "removeField":
            let r = try reader("form", "field")
            return try form(r, .removeField(r.string("field")))
        case "configureField":
            let r = try ParamsReader(params, path: path, allowed: ["form", "field", "configuration"] + FieldSpecDecoder.optionKeys)
            return try checked(r, lookups: ["field"]) { () throws(ProtocolError) in
                .configureField(try r.string("field"), options: try FieldSpecDecoder.options(r),
                                configuration: try r.optionalStringArray("configuration"))
            }
        case "setEnabled":
            let r = try reader("form", "field", "enabled")
            return try form(r, .setEnabled(field: r.string("field"), r.bool("enabled")))
        case "setSecure":
            let r = try reader("form", "field", "secure")
            return try form(r, .setSecure(field: r.string("field"), r.bool("secure")))
        case "setRevealed":
            let r = try reader("form", "field", "revealed")
            return try form(r, .setRevealed(field: r.string("field"), r.bool("revealed")))
        case "getState":
            let r = try reader("form", "includeSecrets")
            return try form(r, .getState(includeSecrets: r.optionalBool("includeSecrets") ?? false))
        case "validate":
            return try form(reader("form"), .validate)
        case "submit":
            let r = try reader("form", "includeSecrets")
            return try form(r, .submit(includeSecrets: r.optionalBool("includeSecrets") ?? false))
        case "reset":
            return try form(reader("form"), .reset)
        default:
            throw unknownMethod(method)
        }
    }

    /// The `events` of subscribe/unsubscribe: form event names only.
    private static func eventNames(_ r: ParamsReader) throws(ProtocolError) -> Set<String>? {
        guard let names = try r.optionalStringArray("events") else { return nil }
        for name in names where !ServerInfo.formEvents.contains(name) {
            throw .invalidParams("\"events\" in \(r.path) names an unknown event \"\(name)\"; form events are: \(ServerInfo.formEvents.joined(separator: ", "))")
        }
        return Set(names)
    }

    static func unknownMethod(_ method: String) -> ProtocolError {
        ProtocolError(.methodNotFound, "unknown method \"\(method)\"\(NameSuggestion.clause(for: method, in: methods)); formd's methods are: \(methods.joined(separator: ", "))")
    }
}
