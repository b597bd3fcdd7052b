import FormdCore
import FormdJSON

/// Decodes field specs, presets and `configureField` keys from JSON, strictly.
public enum FieldSpecDecoder {
    /// Every key a field spec may hold besides `id` and `configuration`.
    public static let optionKeys = SpecKey.allCases.dropFirst(2).map(\.name)

    /// A whole spec: `{"id": …, …}` at `path` (for messages).
    static func spec(_ value: JSONValue, path: String) throws(ProtocolError) -> FieldSpec {
        try spec(value, at: .path(path))
    }

    static func spec(_ value: JSONValue, at location: ParamsReader.Location) throws(ProtocolError) -> FieldSpec {
        guard case .object(let o) = value else {
            throw .invalidParams("\(location.text) must be a field spec object, got \(value.typeName)")
        }
        let r = try SpecSlots(o, at: location, allowed: ~0)
        let id = try r.string(.id)
        if id.isEmpty { throw .valueCheck(.invalidParams("\"id\" in \(r.path) must not be empty")) }
        return FieldSpec(id: id, configuration: try r.optionalStringArray(.configuration) ?? [],
                         options: try options(r))
    }

    /// A preset: any spec key but `id` and `configuration`.
    static func preset(_ value: JSONValue, path: String) throws(ProtocolError) -> FieldOptions {
        guard case .object(let o) = value else {
            throw .invalidParams("\(path) must be an object of field keys, got \(value.typeName)")
        }
        return try options(o, path: path)
    }

    /// A partial spec given as an object (a preset, saved options): every key checked.
    public static func options(_ object: JSONObject, path: String) throws(ProtocolError) -> FieldOptions {
        try options(SpecSlots(object, at: .path(path), allowed: SpecKey.optionMask))
    }

    /// The spec keys present in `r`'s object (`configureField`'s), typed and checked.
    static func options(_ r: ParamsReader) throws(ProtocolError) -> FieldOptions {
        try options(SpecSlots(r))
    }

    /// The option keys of a spec, typed and checked in a fixed order.
    static func options(_ r: SpecSlots) throws(ProtocolError) -> FieldOptions {
        var o = FieldOptions()
        // Most specs of a large form give an id and a text at most.
        guard r.hasAny(SpecKey.optionMask) else { return o }
        o.label = try r.nullableString(.label)
        o.placeholder = try r.nullableString(.placeholder)
        o.text = try r.optionalString(.text)
        o.secure = try r.optionalBool(.secure)
        o.revealed = try r.optionalBool(.revealed)
        o.enabled = try r.optionalBool(.enabled)
        o.returnAction = try r.optionalEnum(.returnAction, ReturnAction.self)
        o.deleteOnEmpty = try r.optionalEnum(.deleteOnEmpty, DeleteOnEmpty.self)
        o.canBecomeFirstResponder = try r.optionalBool(.canBecomeFirstResponder)
        o.canResignFirstResponder = try r.optionalBool(.canResignFirstResponder)
        o.enablesReturnKeyAutomatically = try r.optionalBool(.enablesReturnKeyAutomatically)
        o.clearsOnBeginEditing = try r.optionalBool(.clearsOnBeginEditing)
        o.required = try r.optionalBool(.required)
        o.minLength = try r.nullableCount(.minLength)
        o.maxLength = try r.nullableCount(.maxLength)
        o.pattern = try pattern(.pattern, r)
        o.patternHint = try r.nullableString(.patternHint)
        o.inputFilter = try pattern(.inputFilter, r)
        o.autoAdvance = try r.optionalBool(.autoAdvance)
        if let names = try r.optionalStringArray(.supportedEditActions) {
            var actions: [EditAction] = []
            for name in names {
                guard let a = EditAction(rawValue: name) else {
                    let choices = EditAction.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    throw .valueCheck(.invalidParams("\"supportedEditActions\" in \(r.path) may hold only \(choices), got \"\(name)\""))
                }
                actions.append(a)
            }
            o.supportedEditActions = actions
        }
        if let hints = try r.optionalObject(.hints) {
            if let path = duplicateKeyPath(.object(hints), at: "hints") {
                throw .invalidParams("duplicate key \(path) in \(r.path): hints are passed through as given, so each key may appear once")
            }
            o.hints = FieldHints(hints)
        }
        return o
    }

    /// Where in `value` an object first repeats a key (`hints.a[2].k`), at any depth
    /// (bounded by the parser's depth limit).
    private static func duplicateKeyPath(_ value: JSONValue, at path: String) -> String? {
        switch value {
        case .object(let o):
            if let dup = o.firstDuplicateKey { return "\"\(dup)\" at \(path)" }
            for m in o.members {
                if let found = duplicateKeyPath(m.value, at: "\(path).\(m.key)") { return found }
            }
        case .array(let a):
            for (i, v) in a.enumerated() {
                if let found = duplicateKeyPath(v, at: "\(path)[\(i)]") { return found }
            }
        default:
            break
        }
        return nil
    }

    /// A pattern key (formd's dialect), parsed now so a bad one is refused by name and offset.
    private static func pattern(_ key: SpecKey, _ r: SpecSlots) throws(ProtocolError) -> FieldPattern?? {
        guard let source = try r.nullableString(key) else { return nil }
        do {
            return .some(try source.map { s throws(FormError) in try FieldPattern(s) })
        } catch {
            throw .valueCheck(ProtocolError(.invalidParams, "\"\(key.name)\" in \(r.path): \(error.message)"))
        }
    }

    /// `{"name": preset, …}` of `defineForm` and form files.
    static func presets(_ object: JSONObject?, path: String) throws(ProtocolError) -> [String: FieldOptions] {
        guard let object else { return [:] }
        if let dup = object.firstDuplicateKey { throw .invalidParams("duplicate preset \"\(dup)\" in \(path)") }
        var out: [String: FieldOptions] = [:]
        for m in object.members {
            out[m.key] = try preset(m.value, path: "\(path).\(m.key)")
        }
        return out
    }

    /// The `fields` array read straight from its bytes (`Envelope(defineForm:maxDepth:)`),
    /// each spec allowed `maxDepth` levels of nesting of its own: one of the usual shape
    /// (`plainSpec`) is built from its members, any other parsed alone and decoded as
    /// `fields(_:path:)` decodes it. Nil where that would fail, or the bytes are not JSON:
    /// the long way words it.
    static func fields(reading array: inout JSONArrayReader, maxDepth: Int) -> [FieldSpec]? {
        var specs: [FieldSpec] = []
        while array.hasNext() {
            let mark = array.mark
            if var object = array.object(), let spec = plainSpec(&object), array.end(object) {
                specs.append(spec)
                continue
            }
            array.rewind(to: mark)
            guard let value = array.value(maxDepth: maxDepth),
                  let spec = try? spec(value, at: .element(of: "fields", specs.count)) else { return nil }
            specs.append(spec)
        }
        return array.isClosed ? specs : nil
    }

    private static let plainSpecKeys: [StaticString] = ["id", "text"]

    /// A spec of a non-empty string `id` and at most a string `text`, in either order, as
    /// `spec(_:at:)` decodes it; nil for any other.
    private static func plainSpec(_ object: inout JSONObjectReader) -> FieldSpec? {
        var id: String? = nil
        var text: String? = nil
        while let key = object.nextKey(in: plainSpecKeys) {
            if key == 0 {
                guard id == nil, let s = object.string(), !s.isEmpty else { return nil }
                id = s
            } else {
                guard text == nil, let s = object.string() else { return nil }
                text = s
            }
        }
        guard object.isClosed, let id else { return nil }
        var spec = FieldSpec(id: id)
        if let text { spec.options.text = text }
        return spec
    }

    /// The `fields` array of `defineForm` and form files.
    static func fields(_ values: [JSONValue], path: String) throws(ProtocolError) -> [FieldSpec] {
        var specs: [FieldSpec] = []
        specs.reserveCapacity(values.count)
        for (i, v) in values.enumerated() {
            specs.append(try spec(v, at: .element(of: path, i)))
        }
        return specs
    }
}
