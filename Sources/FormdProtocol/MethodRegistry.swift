import FormdCore
import FormdJSON

/// One method of the protocol: its name, the params keys it takes and how they become a
/// `Call`. An entry says everything formd knows about a method's request.
public struct MethodEntry: Sendable {
    public typealias Decoder = @Sendable (ParamsReader) throws(ProtocolError) -> Call

    public let name: String
    /// The params keys the method takes; any other is refused, and the message lists these.
    public let keys: [String]
    /// The call, from params that hold only `keys`.
    let decode: Decoder

    init(_ name: String, keys: [String], _ decode: @escaping Decoder) {
        self.name = name
        self.keys = keys
        self.decode = decode
    }

    /// A keystroke method's entry: name, keys and decoder are `KeystrokeMethod`'s, the ones
    /// the keystroke decoder (`Envelope(keystroke:)`) matches and calls.
    init(_ keystroke: KeystrokeMethod) {
        self.init(keystroke.name, keys: keystroke.keyNames) { r throws(ProtocolError) in
            try keystroke.call(ParsedKeystrokeParams(reader: r))
        }
    }
}

/// Every method formd answers, in the order `initialize` lists them, each once. A
/// request's method is looked up here and decoded by its entry, whichever way its bytes
/// were read; `initialize`'s capabilities, the unknown-method message and the schema check
/// (`protocol/check_schemas.py`, which asks the binary) all come from this table.
///
/// From an entry on: its decoder makes a `Call`; a `.form` call's `FormCommand` is carried
/// out by `FormEngine.perform` (`Form.perform` switches on it), the daemon-wide calls by
/// the server's `Daemon`; the `CommandResult` is written by `ResultEncoder`, each event by
/// `EventEncoder` under its `EventName`.
public enum MethodRegistry {
    public static let entries: [MethodEntry] = [
        // Daemon-wide methods take `form` like every method and ignore it.
        MethodEntry("initialize", keys: ["form", "clientInfo", "positionEncoding", "textSync", "errorNotifications"]) { r throws(ProtocolError) in
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
        },
        MethodEntry("shutdown", keys: ["form"]) { r throws(ProtocolError) in
            _ = try r.optionalString("form")
            return .shutdown
        },
        MethodEntry("defineForm", keys: ["form", "fields", "presets"]) { r throws(ProtocolError) in
            guard let fields = try r.optionalArray("fields") else {
                throw .invalidParams("missing \"fields\" in \(r.path) (an array of field specs)")
            }
            return try r.checkedCall(lookups: nil) { () throws(ProtocolError) in
                .defineForm(fields: try FieldSpecDecoder.fields(fields, path: "fields"),
                            presets: try FieldSpecDecoder.presets(r.optionalObject("presets"), path: "presets"))
            }
        },
        MethodEntry("addField", keys: ["form", "field", "after"]) { r throws(ProtocolError) in
            guard let spec = r.object["field"] else { throw .invalidParams("missing \"field\" in \(r.path) (a field spec)") }
            return try r.checkedCall(lookups: ["after"]) { () throws(ProtocolError) in
                .addField(try FieldSpecDecoder.spec(spec, path: "field"), after: try r.optionalString("after"))
            }
        },
        MethodEntry("removeField", keys: ["form", "field"]) { r throws(ProtocolError) in
            try r.formCall(.removeField(r.string("field")))
        },
        MethodEntry("configureField", keys: ["form", "field", "configuration"] + FieldSpecDecoder.optionKeys) { r throws(ProtocolError) in
            try r.checkedCall(lookups: ["field"]) { () throws(ProtocolError) in
                .configureField(try r.string("field"), options: try FieldSpecDecoder.options(r),
                                configuration: try r.optionalStringArray("configuration"))
            }
        },
        MethodEntry(.setText),
        MethodEntry(.insertText),
        MethodEntry(.delete),
        MethodEntry("select", keys: ["form", "field", "start", "end"]) { r throws(ProtocolError) in
            try r.formCall(.select(field: r.optionalString("field"), start: r.count("start"), end: r.count("end")))
        },
        MethodEntry("moveCaret", keys: ["form", "field", "to", "extend"]) { r throws(ProtocolError) in
            try r.formCall(.moveCaret(field: r.optionalString("field"), to: r.requiredEnum("to", CaretTarget.self),
                                      extend: r.optionalBool("extend") ?? false))
        },
        MethodEntry("editAction", keys: ["form", "field", "action", "text"]) { r throws(ProtocolError) in
            let action = try r.requiredEnum("action", EditAction.self)
            let text = try r.optionalString("text")
            return try r.checkedCall(lookups: ["field"]) { () throws(ProtocolError) in
                if action == .paste && text == nil {
                    throw .valueCheck(.invalidParams("missing \"text\" in \(r.path): paste inserts the text the client takes from its clipboard"))
                }
                if action != .paste && text != nil { throw .valueCheck(.invalidParams("\"text\" in \(r.path) goes only with \"action\": \"paste\"")) }
                return .editAction(field: try r.optionalString("field"), action: action, text: text)
            }
        },
        MethodEntry("undo", keys: ["form", "field"]) { r throws(ProtocolError) in try r.formCall(.undo(field: r.optionalString("field"))) },
        MethodEntry("redo", keys: ["form", "field"]) { r throws(ProtocolError) in try r.formCall(.redo(field: r.optionalString("field"))) },
        MethodEntry(.pressReturn),
        MethodEntry(.demandFocus),
        MethodEntry("focusNext", keys: ["form"]) { r throws(ProtocolError) in try r.formCall(.focusNext) },
        MethodEntry("focusPrevious", keys: ["form"]) { r throws(ProtocolError) in try r.formCall(.focusPrevious) },
        MethodEntry("setEnabled", keys: ["form", "field", "enabled"]) { r throws(ProtocolError) in
            try r.formCall(.setEnabled(field: r.string("field"), r.bool("enabled")))
        },
        MethodEntry("setSecure", keys: ["form", "field", "secure"]) { r throws(ProtocolError) in
            try r.formCall(.setSecure(field: r.string("field"), r.bool("secure")))
        },
        MethodEntry("setRevealed", keys: ["form", "field", "revealed"]) { r throws(ProtocolError) in
            try r.formCall(.setRevealed(field: r.string("field"), r.bool("revealed")))
        },
        MethodEntry("getState", keys: ["form", "includeSecrets"]) { r throws(ProtocolError) in
            try r.formCall(.getState(includeSecrets: r.optionalBool("includeSecrets") ?? false))
        },
        MethodEntry("validate", keys: ["form"]) { r throws(ProtocolError) in try r.formCall(.validate) },
        MethodEntry("submit", keys: ["form", "includeSecrets"]) { r throws(ProtocolError) in
            try r.formCall(.submit(includeSecrets: r.optionalBool("includeSecrets") ?? false))
        },
        MethodEntry("reset", keys: ["form"]) { r throws(ProtocolError) in try r.formCall(.reset) },
        MethodEntry("subscribe", keys: ["form", "forms", "fields", "events"]) { r throws(ProtocolError) in
            .subscribe(try SubscriptionRule(r))
        },
        MethodEntry("unsubscribe", keys: ["form", "forms", "fields", "events"]) { r throws(ProtocolError) in
            .unsubscribe(try SubscriptionRule(r))
        },
    ]

    /// Every method's name, in `initialize`'s order.
    public static let names = entries.map(\.name)

    private static let indexByName = Dictionary(uniqueKeysWithValues: entries.indices.map { (entries[$0].name, $0) })

    public static func entry(named name: String) -> MethodEntry? {
        indexByName[name].map { entries[$0] }
    }

    /// The call of `method` with `params`, checking every key.
    public static func decode(method: String, params: JSONObject) throws(ProtocolError) -> Call {
        guard let entry = entry(named: method) else { throw unknownMethod(method) }
        return try entry.decode(ParamsReader(params, at: .params(method: method), allowed: entry.keys))
    }

    static func unknownMethod(_ method: String) -> ProtocolError {
        ProtocolError(.methodNotFound, "unknown method \"\(method)\"\(NameSuggestion.clause(for: method, in: names)); formd's methods are: \(names.joined(separator: ", "))")
    }
}

extension ParamsReader {
    /// `command` on the form the params name (`form`), or the default form.
    func formCall(_ command: FormCommand) throws(ProtocolError) -> Call {
        .form(try optionalString("form") ?? FormEngine.defaultForm, command)
    }

    /// The command `build` makes, or, when one of its values fails a value check, a call
    /// that looks up the form (unless `lookups` is nil: the command creates it) and the
    /// fields named by the `lookups` keys before answering that check's error.
    func checkedCall(lookups: [String]?, _ build: () throws(ProtocolError) -> FormCommand) throws(ProtocolError) -> Call {
        do {
            return try formCall(build())
        } catch where error.isValueCheck {
            var fields: [String] = []
            for key in lookups ?? [] {
                if let id = try optionalString(key) { fields.append(id) }
            }
            let name = try optionalString("form") ?? FormEngine.defaultForm
            guard lookups != nil else { throw error }
            return .refused(form: name, fields: fields, error)
        }
    }
}

extension SubscriptionRule {
    /// The rule of `subscribe`/`unsubscribe` params; `form` is accepted and ignored, `forms`
    /// names them; `events` may name form events only.
    init(_ r: ParamsReader) throws(ProtocolError) {
        _ = try r.optionalString("form")
        let forms = try r.optionalStringArray("forms").map(Set.init)
        let fields = try r.optionalStringArray("fields").map(Set.init)
        var events: Set<String>? = nil
        if let names = try r.optionalStringArray("events") {
            let known = EventName.formEvents.map(\.name)
            for name in names where !known.contains(name) {
                throw .invalidParams("\"events\" in \(r.path) names an unknown event \"\(name)\"; form events are: \(known.joined(separator: ", "))")
            }
            events = Set(names)
        }
        self.init(forms: forms, fields: fields, events: events)
    }
}
