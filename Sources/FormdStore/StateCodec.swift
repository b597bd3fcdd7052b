import FormdCore
import FormdJSON
import FormdProtocol

/// Saved forms as JSON: the payload of snapshot and journal records.
///
/// A field is saved as its spec (id, presets, own keys: what it was defined or
/// reconfigured with; its effective attributes follow from those) and what the person
/// did to it (text, selection as UTF-8 byte offsets, demand, visited, touched). Keys at
/// their default are left out. Decoding is strict: an unknown key, a wrong type or a value
/// out of range is an error, because a record that passed its checksum but does not
/// decode is a bug to report, not something to guess around.
public enum StateCodec {
    // MARK: Engine -> saved state

    /// `form` as it is to be saved. Without `persistSecrets`, a secure field keeps neither
    /// its text nor the initial text of its spec or presets, and says so with
    /// `restoredWithoutSecret` when there was any.
    public static func persisted(_ form: Form, persistSecrets: Bool) -> PersistedForm {
        // Only the presets the form defined itself; the built-ins are this formd's own.
        let builtIn = PresetLibrary.builtIn.presets
        var presets = form.presetLibrary.presets.filter { builtIn[$0.key] != $0.value }
        if !persistSecrets {
            // Presets that give a secure field its initial text lose that text.
            for f in form.fields where f.attributes.secure {
                for name in f.spec.configuration where form.presetLibrary.presets[name]?.text != nil {
                    var p = form.presetLibrary.presets[name]!
                    p.text = nil
                    presets[name] = p
                }
            }
        }
        return PersistedForm(name: form.name, seq: form.seq, presets: presets,
                             fields: form.fields.map { persisted($0, persistSecrets: persistSecrets) },
                             responder: form.firstResponderID, pendingBecome: form.pendingBecomeID)
    }

    public static func persisted(_ f: Field, persistSecrets: Bool) -> PersistedField {
        if f.attributes.secure && !persistSecrets {
            var spec = f.spec
            spec.options.text = nil
            let withheld = f.restoredWithoutSecret || !f.text.isEmpty || !f.initialText.isEmpty
            return PersistedField(spec: spec, text: "", anchorUTF8: 0, headUTF8: 0, demand: f.demand,
                                  visited: f.visited, touched: f.touched, restoredWithoutSecret: withheld)
        }
        let s = f.selectionUTF8
        return PersistedField(spec: f.spec, text: f.text, anchorUTF8: s.anchor, headUTF8: s.head, demand: f.demand,
                              visited: f.visited, touched: f.touched, restoredWithoutSecret: f.restoredWithoutSecret)
    }

    // MARK: Encoding

    public static func encode(_ form: PersistedForm) -> JSONObject {
        var o = JSONObject()
        o.append("form", .string(form.name))
        o.append("seq", .number(JSONNumber(form.seq)))
        o.append("responder", form.responder.map(JSONValue.string) ?? .null)
        o.append("pendingBecome", form.pendingBecome.map(JSONValue.string) ?? .null)
        var presets = JSONObject()
        for name in form.presets.keys.sorted() { presets.append(name, .object(encode(form.presets[name]!))) }
        o.append("presets", .object(presets))
        o.append("fields", .array(form.fields.map { .object(encode($0)) }))
        return o
    }

    public static func encode(_ f: PersistedField) -> JSONObject {
        var o = JSONObject()
        o.append("id", .string(f.spec.id))
        if !f.spec.configuration.isEmpty { o.append("configuration", .array(f.spec.configuration.map(JSONValue.string))) }
        if !f.spec.options.isEmpty { o.append("options", .object(encode(f.spec.options))) }
        if !f.text.isEmpty { o.append("text", .string(f.text)) }
        if f.anchorUTF8 != 0 { o.append("anchor", .number(JSONNumber(f.anchorUTF8))) }
        if f.headUTF8 != 0 { o.append("head", .number(JSONNumber(f.headUTF8))) }
        if let d = f.demand { o.append("demand", .string(d.rawValue)) }
        if f.visited { o.append("visited", true) }
        if f.touched { o.append("touched", true) }
        if f.restoredWithoutSecret { o.append("restoredWithoutSecret", true) }
        return o
    }

    /// The keys a spec sets, with the protocol's names and values.
    public static func encode(_ o: FieldOptions) -> JSONObject {
        var out = JSONObject()
        func str(_ k: String, _ v: String??) { if let v { out.append(k, v.map(JSONValue.string) ?? .null) } }
        func bool(_ k: String, _ v: Bool?) { if let v { out.append(k, .bool(v)) } }
        func int(_ k: String, _ v: Int??) { if let v { out.append(k, v.map { .number(JSONNumber($0)) } ?? .null) } }
        str("label", o.label)
        str("placeholder", o.placeholder)
        if let v = o.text { out.append("text", .string(v)) }
        bool("secure", o.secure)
        bool("revealed", o.revealed)
        bool("enabled", o.enabled)
        if let v = o.returnAction { out.append("returnAction", .string(v.rawValue)) }
        if let v = o.deleteOnEmpty { out.append("deleteOnEmpty", .string(v.rawValue)) }
        bool("canBecomeFirstResponder", o.canBecomeFirstResponder)
        bool("canResignFirstResponder", o.canResignFirstResponder)
        bool("enablesReturnKeyAutomatically", o.enablesReturnKeyAutomatically)
        bool("clearsOnBeginEditing", o.clearsOnBeginEditing)
        bool("required", o.required)
        int("minLength", o.minLength)
        int("maxLength", o.maxLength)
        str("pattern", o.pattern.map { $0?.source })
        str("patternHint", o.patternHint)
        str("inputFilter", o.inputFilter.map { $0?.source })
        bool("autoAdvance", o.autoAdvance)
        if let v = o.supportedEditActions { out.append("supportedEditActions", .array(v.map { .string($0.rawValue) })) }
        if let v = o.hints { out.append("hints", .object(v.object)) }
        return out
    }

    /// Every `FieldOptions` key `encode` writes (the wire's own list); a test checks it
    /// covers the struct.
    public static var optionKeys: [String] { FieldSpecDecoder.optionKeys }

    // MARK: Decoding

    public struct DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// Reads members by name, refusing unknown or duplicate keys and wrong types.
    /// The protocol's strict object reader, with its errors as decode errors: saved state
    /// is checked by the same rules as input.
    struct Reader {
        private let inner: ParamsReader

        init(_ object: JSONObject, path: String, allowed: [String]) throws(DecodeError) {
            inner = try decoding { () throws(ProtocolError) in try ParamsReader(object, path: path, allowed: allowed) }
        }

        func value(_ key: String) throws(DecodeError) -> JSONValue { try decoding { () throws(ProtocolError) in try inner.value(key) } }
        func string(_ key: String) throws(DecodeError) -> String { try decoding { () throws(ProtocolError) in try inner.string(key) } }
        func optionalString(_ key: String) throws(DecodeError) -> String? { try decoding { () throws(ProtocolError) in try inner.optionalString(key) } }
        /// Absent: nil; null: .some(nil).
        func nullableString(_ key: String) throws(DecodeError) -> String?? { try decoding { () throws(ProtocolError) in try inner.nullableString(key) } }
        /// Present, a string or null.
        func stringOrNull(_ key: String) throws(DecodeError) -> String? { try decoding { () throws(ProtocolError) in try inner.stringOrNull(key) } }
        func bool(_ key: String) throws(DecodeError) -> Bool? { try decoding { () throws(ProtocolError) in try inner.optionalBool(key) } }
        func count(_ key: String) throws(DecodeError) -> Int? { try decoding { () throws(ProtocolError) in try inner.optionalCount(key) } }
        func nullableCount(_ key: String) throws(DecodeError) -> Int?? { try decoding { () throws(ProtocolError) in try inner.nullableCount(key) } }
        func strings(_ key: String) throws(DecodeError) -> [String]? { try decoding { () throws(ProtocolError) in try inner.optionalStringArray(key) } }
        func object(_ key: String) throws(DecodeError) -> JSONObject? { try decoding { () throws(ProtocolError) in try inner.optionalObject(key) } }
        func enumValue<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) throws(DecodeError) -> E? where E.RawValue == String {
            try decoding { () throws(ProtocolError) in try inner.optionalEnum(key, type) }
        }
    }

    static let formKeys = ["form", "seq", "responder", "pendingBecome", "presets", "fields"]
    static let fieldKeys = ["id", "configuration", "options", "text", "anchor", "head", "demand", "visited", "touched",
                            "restoredWithoutSecret"]

    /// A whole form; `extra` are further keys the caller's record may hold.
    public static func decodeForm(_ o: JSONObject, path: String, extra: [String] = []) throws(DecodeError) -> PersistedForm {
        let r = try Reader(o, path: path, allowed: formKeys + extra)
        let name = try r.string("form")
        var presets: [String: FieldOptions] = [:]
        for m in try r.object("presets")?.members ?? [] {
            guard let p = m.value.objectValue else { throw DecodeError("\(path).presets.\(m.key) must be an object") }
            guard presets[m.key] == nil else { throw DecodeError("\(path).presets: duplicate \"\(m.key)\"") }
            presets[m.key] = try decodeOptions(p, path: "\(path).presets.\(m.key)")
        }
        guard let fields = try r.value("fields").arrayValue else { throw DecodeError("\(path).fields must be an array") }
        return PersistedForm(name: name, seq: try r.count("seq") ?? 0, presets: presets,
                             fields: try decodeFields(fields, path: "\(path).fields"),
                             responder: try r.stringOrNull("responder"), pendingBecome: try r.stringOrNull("pendingBecome"))
    }

    public static func decodeFields(_ values: [JSONValue], path: String) throws(DecodeError) -> [PersistedField] {
        var out: [PersistedField] = []
        out.reserveCapacity(values.count)
        for (i, v) in values.enumerated() {
            guard let o = v.objectValue else { throw DecodeError("\(path)[\(i)] must be an object") }
            out.append(try decodeField(o, path: "\(path)[\(i)]"))
        }
        return out
    }

    public static func decodeField(_ o: JSONObject, path: String) throws(DecodeError) -> PersistedField {
        let r = try Reader(o, path: path, allowed: fieldKeys)
        let id = try r.string("id")
        if id.isEmpty { throw DecodeError("\(path).id is empty") }
        let options = try r.object("options").map { o throws(DecodeError) in try decodeOptions(o, path: "\(path).options") }
        let spec = FieldSpec(id: id, configuration: try r.strings("configuration") ?? [], options: options ?? FieldOptions())
        return PersistedField(spec: spec, text: try r.optionalString("text") ?? "",
                              anchorUTF8: try r.count("anchor") ?? 0, headUTF8: try r.count("head") ?? 0,
                              demand: try r.enumValue("demand", Demand.self),
                              visited: try r.bool("visited") ?? false, touched: try r.bool("touched") ?? false,
                              restoredWithoutSecret: try r.bool("restoredWithoutSecret") ?? false)
    }

    /// Saved options are checked by the same rules as a field spec on the wire.
    public static func decodeOptions(_ o: JSONObject, path: String) throws(DecodeError) -> FieldOptions {
        try decoding { () throws(ProtocolError) in try FieldSpecDecoder.options(o, path: path) }
    }
}

/// Runs a protocol-level check and reports its failure as a decode error.
private func decoding<T>(_ body: () throws(ProtocolError) -> T) throws(StateCodec.DecodeError) -> T {
    do {
        return try body()
    } catch {
        throw StateCodec.DecodeError(error.message)
    }
}
