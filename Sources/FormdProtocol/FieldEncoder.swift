import FormdCore
import FormdJSON

/// Writes field specs and field state as the protocol shows them.
enum FieldEncoder {
    /// Every spec key with its effective value (nulls included), after `id`: the members
    /// up to `autoAdvance` in one reservation, sized from their strings; the lists after.
    static func writeAttributes(_ a: FieldAttributes, configuration: [String], to w: inout JSONWriter) {
        let pattern = a.pattern?.source, inputFilter = a.inputFilter?.source
        let strings = optionalBound(a.label) + optionalBound(a.placeholder) + optionalBound(pattern) + optionalBound(a.patternHint)
            + optionalBound(inputFilter) + JSONCursor.bound(a.returnAction.rawValue) + JSONCursor.bound(a.deleteOnEmpty.rawValue)
        let literals = JSONCursor.room(",\"label\":", ",\"placeholder\":", ",\"secure\":false", ",\"revealed\":false", ",\"enabled\":false", ",\"returnAction\":")
            + JSONCursor.room(",\"deleteOnEmpty\":", ",\"canBecomeFirstResponder\":false", ",\"canResignFirstResponder\":false",
                              ",\"enablesReturnKeyAutomatically\":false", ",\"clearsOnBeginEditing\":false", ",\"required\":false")
            + JSONCursor.room(",\"minLength\":", ",\"maxLength\":", ",\"pattern\":", ",\"patternHint\":", ",\"inputFilter\":", ",\"autoAdvance\":false")
        w.write(upTo: literals + strings + 2 * JSONCursor.intBound) { c in
            // Each branch a constant: a literal chosen at run time is copied by a call.
            c.raw(",\"label\":"); c.optionalString(a.label)
            c.raw(",\"placeholder\":"); c.optionalString(a.placeholder)
            if a.secure { c.raw(",\"secure\":true") } else { c.raw(",\"secure\":false") }
            if a.revealed { c.raw(",\"revealed\":true") } else { c.raw(",\"revealed\":false") }
            if a.enabled { c.raw(",\"enabled\":true") } else { c.raw(",\"enabled\":false") }
            c.raw(",\"returnAction\":"); c.string(a.returnAction.rawValue)
            c.raw(",\"deleteOnEmpty\":"); c.string(a.deleteOnEmpty.rawValue)
            if a.canBecomeFirstResponder { c.raw(",\"canBecomeFirstResponder\":true") } else { c.raw(",\"canBecomeFirstResponder\":false") }
            if a.canResignFirstResponder { c.raw(",\"canResignFirstResponder\":true") } else { c.raw(",\"canResignFirstResponder\":false") }
            if a.enablesReturnKeyAutomatically {
                c.raw(",\"enablesReturnKeyAutomatically\":true")
            } else {
                c.raw(",\"enablesReturnKeyAutomatically\":false")
            }
            if a.clearsOnBeginEditing { c.raw(",\"clearsOnBeginEditing\":true") } else { c.raw(",\"clearsOnBeginEditing\":false") }
            if a.required { c.raw(",\"required\":true") } else { c.raw(",\"required\":false") }
            c.raw(",\"minLength\":"); optionalInt(a.minLength, &c)
            c.raw(",\"maxLength\":"); optionalInt(a.maxLength, &c)
            c.raw(",\"pattern\":"); c.optionalString(pattern)
            c.raw(",\"patternHint\":"); c.optionalString(a.patternHint)
            c.raw(",\"inputFilter\":"); c.optionalString(inputFilter)
            if a.autoAdvance { c.raw(",\"autoAdvance\":true") } else { c.raw(",\"autoAdvance\":false") }
        }
        // The edit actions in one more; with no configuration and no hints (most fields), those too.
        let actions = a.supportedEditActions
        let plain = configuration.isEmpty && a.hints.isEmpty
        w.write(upTo: JSONCursor.room(",\"supportedEditActions\":[", "],\"configuration\":[],\"hints\":{}")
                + actions.reduce(0) { $0 + 1 + JSONCursor.bound($1.rawValue) }) { c in
            c.raw(",\"supportedEditActions\":[")
            for (i, action) in actions.enumerated() {
                if i > 0 { c.raw(",") }
                c.string(action.rawValue)
            }
            if plain { c.raw("],\"configuration\":[],\"hints\":{}") } else { c.raw("]") }
        }
        if !plain {
            w.key("configuration"); w.writeStrings(configuration)
            w.key("hints"); w.write(a.hints)
        }
    }

    /// Room `JSONCursor.optionalString` needs.
    @inline(__always)
    private static func optionalBound(_ s: String?) -> Int { s.map(JSONCursor.bound) ?? 4 }

    /// `v`, or `null`; needs `JSONCursor.intBound`.
    @inline(__always)
    private static func optionalInt(_ v: Int?, _ c: inout JSONCursor) {
        if let v { c.int(v) } else { c.raw("null") }
    }

    /// A field's whole state: spec keys, then text (only when visible), display and the
    /// derived flags.
    static func writeSnapshot(_ f: FieldSnapshot, to w: inout JSONWriter) {
        w.writeString(f.id, after: "{\"id\":")
        RecentSettings.write(f, to: &w)
        writeState(f, to: &w)
    }

    /// The members of a form's state after `form` and `seq`: responder and fields. A field
    /// holding the same settings as the one before it repeats the bytes written for them.
    static func writeFormBody(_ s: FormSnapshot, to w: inout JSONWriter) {
        w.key("firstResponder"); w.writeOptionalString(s.firstResponder)
        w.key("fields"); w.writeRaw("[")
        var settings = 0..<0
        // Through a buffer pointer each field is read in place; through the array, copied.
        s.fields.withUnsafeBufferPointer { fields in
            for i in fields.indices {
                w.write(upTo: JSONCursor.room(",{\"id\":") + JSONCursor.bound(fields[i].id)) { c in
                    if i > 0 { c.raw(",") }
                    c.raw("{\"id\":"); c.string(fields[i].id)
                }
                if i > 0 && fields[i].sharesSettings(with: fields[i - 1]) {
                    w.writeRaw(copyOf: settings)
                } else {
                    let start = w.count
                    writeAttributes(fields[i].attributes, configuration: fields[i].configuration, to: &w)
                    settings = start..<w.count
                }
                writeState(fields[i], to: &w)
            }
        }
        w.writeRaw("]")
    }

    /// The members of a snapshot after its settings, and the closing brace: in two
    /// reservations around the validation errors (one when there are none).
    static func writeState(_ f: FieldSnapshot, to w: inout JSONWriter) {
        if f.isEmptyAndUntouched {
            w.writeRaw(emptyAndUntouchedState)
        } else {
            writeStateMembers(f, to: &w)
        }
    }

    /// What `writeStateMembers` writes for a field `FieldSnapshot.isEmptyAndUntouched`:
    /// every field of a form just defined without texts.
    static let emptyAndUntouchedState: StaticString = ",\"text\":\"\",\"display\":\"\",\"length\":0,\"selection\":{\"start\":0,\"end\":0},\"isFirstResponder\":false,\"demand\":null,\"valid\":true,\"errors\":[],\"dirty\":false,\"visited\":false,\"touched\":false}"

    static func writeStateMembers(_ f: FieldSnapshot, to w: inout JSONWriter) {
        let valid = f.validity.isValid
        let strings = (f.text.map(JSONCursor.bound) ?? 0) + JSONCursor.bound(f.display) + JSONCursor.bound(f.demand?.rawValue ?? "null")
        w.write(upTo: JSONCursor.room(",\"text\":", ",\"display\":", ",\"length\":", ",\"isFirstResponder\":false", ",\"demand\":", ",\"valid\":false,\"errors\":")
                + rangeRoom(opening: ",\"selection\":{\"start\":") + JSONCursor.intBound + strings) { c in
            if let text = f.text { c.raw(",\"text\":"); c.string(text) }
            c.raw(",\"display\":"); c.string(f.display)
            c.raw(",\"length\":"); c.int(f.length)
            range(f.selection, opening: ",\"selection\":{\"start\":", &c)
            // Each branch a constant: a literal chosen at run time is copied by a call.
            if f.isFirstResponder { c.raw(",\"isFirstResponder\":true") } else { c.raw(",\"isFirstResponder\":false") }
            c.raw(",\"demand\":"); c.optionalString(f.demand?.rawValue)
            if valid { c.raw(",\"valid\":true,\"errors\":") } else { c.raw(",\"valid\":false,\"errors\":") }
        }
        if !valid { writeValidationErrors(f.validity.errors, to: &w) }
        w.write(upTo: JSONCursor.room("[]", ",\"dirty\":false", ",\"visited\":false", ",\"touched\":false", ",\"restoredWithoutSecret\":true", "}")) { c in
            if valid { c.raw("[]") }
            if f.dirty { c.raw(",\"dirty\":true") } else { c.raw(",\"dirty\":false") }
            if f.visited { c.raw(",\"visited\":true") } else { c.raw(",\"visited\":false") }
            if f.touched { c.raw(",\"touched\":true") } else { c.raw(",\"touched\":false") }
            if f.restoredWithoutSecret { c.raw(",\"restoredWithoutSecret\":true") }
            c.raw("}")
        }
    }

    /// Only the keys a change set holds, as an object.
    static func writeChanges(_ c: FieldChanges, to w: inout JSONWriter) {
        var first = true
        func key(_ k: StaticString, _ w: inout JSONWriter) { w.key(k, first: first); first = false }
        func flag(_ k: StaticString, _ v: Bool, _ w: inout JSONWriter) { w.writeBool(v, key: k, first: first); first = false }
        let o = c.options
        if let v = o.label { key("label", &w); w.writeOptionalString(v) }
        if let v = o.placeholder { key("placeholder", &w); w.writeOptionalString(v) }
        if let v = o.secure { flag("secure", v, &w) }
        if let v = o.revealed { flag("revealed", v, &w) }
        if let v = o.enabled { flag("enabled", v, &w) }
        if let v = o.returnAction { key("returnAction", &w); w.writeString(v.rawValue) }
        if let v = o.deleteOnEmpty { key("deleteOnEmpty", &w); w.writeString(v.rawValue) }
        if let v = o.canBecomeFirstResponder { flag("canBecomeFirstResponder", v, &w) }
        if let v = o.canResignFirstResponder { flag("canResignFirstResponder", v, &w) }
        if let v = o.enablesReturnKeyAutomatically { flag("enablesReturnKeyAutomatically", v, &w) }
        if let v = o.clearsOnBeginEditing { flag("clearsOnBeginEditing", v, &w) }
        if let v = o.required { flag("required", v, &w) }
        if let v = o.minLength { key("minLength", &w); w.writeOptionalInt(v) }
        if let v = o.maxLength { key("maxLength", &w); w.writeOptionalInt(v) }
        if let v = o.pattern { key("pattern", &w); w.writeOptionalString(v?.source) }
        if let v = o.patternHint { key("patternHint", &w); w.writeOptionalString(v) }
        if let v = o.inputFilter { key("inputFilter", &w); w.writeOptionalString(v?.source) }
        if let v = o.autoAdvance { flag("autoAdvance", v, &w) }
        if let v = o.supportedEditActions { key("supportedEditActions", &w); w.writeStrings(v.map(\.rawValue)) }
        if let v = o.hints { key("hints", &w); w.write(v) }
        if let v = c.configuration { key("configuration", &w); w.writeStrings(v) }
        if let v = c.text { key("text", &w); w.writeString(v) }
        if let v = c.display { key("display", &w); w.writeString(v) }
        if let v = c.selection { key("selection", &w); writeRange(v, to: &w) }
        if let v = c.visited { flag("visited", v, &w) }
        if let v = c.touched { flag("touched", v, &w) }
        if first { w.writeRaw("{}") } else { w.closeObject() }
    }

    static func writeRange(_ r: TextRange, opening: StaticString = "{\"start\":", to w: inout JSONWriter) {
        w.write(upTo: rangeRoom(opening: opening)) { range(r, opening: opening, &$0) }
    }

    /// Room `range` needs: its literals and two integers.
    @inline(__always)
    static func rangeRoom(opening: StaticString) -> Int {
        JSONCursor.room(opening, ",\"end\":", ",\"backward\":true}") + 2 * JSONCursor.intBound
    }

    /// The range after `opening`, which ends with the range's own `{"start":` (a key
    /// before it included); needs `rangeRoom(opening:)`.
    @inline(__always)
    static func range(_ r: TextRange, opening: StaticString, _ c: inout JSONCursor) {
        c.raw(opening)
        c.int(r.start)
        c.raw(",\"end\":")
        c.int(r.end)
        // Each branch a constant: a literal chosen at run time is copied by a call.
        if r.backward { c.raw(",\"backward\":true}") } else { c.raw("}") }
    }

    /// Bytes `mask(length:_:)` writes at most.
    static func maskBound(length: Int) -> Int { 3 * length + 2 }

    /// One bullet per character, quoted: what a masked field shows.
    static func mask(length: Int, _ c: inout JSONCursor) {
        c.raw("\"")
        for _ in 0..<length { c.raw("•") }
        c.raw("\"")
    }

    /// `[{"field": …, "errors": […]}, …]`.
    static func writeErrors(_ errors: [FieldErrors], to w: inout JSONWriter) {
        writeObjects(errors, to: &w) { e, w in
            w.key("field", first: true); w.writeString(e.field)
            w.key("errors"); writeValidationErrors(e.errors, to: &w)
        }
    }

    /// `[{"rule": …, "message": …}, …]`.
    static func writeValidationErrors(_ errors: [ValidationError], to w: inout JSONWriter) {
        writeObjects(errors, to: &w) { e, w in
            w.key("rule", first: true); w.writeString(e.rule.rawValue)
            w.key("message"); w.writeString(e.message)
        }
    }

    /// An array of one object per item; `members` writes an item's members, the first
    /// with `first: true` (which opens the object).
    private static func writeObjects<Item>(_ items: [Item], to w: inout JSONWriter, _ members: (Item, inout JSONWriter) -> Void) {
        w.writeRaw("[")
        for (i, item) in items.enumerated() {
            if i > 0 { w.writeRaw(",") }
            members(item, &w)
            w.closeObject()
        }
        w.writeRaw("]")
    }

    /// `{"id": "text", …}` in form order.
    static func writeValues(_ values: [FieldValue], to w: inout JSONWriter) {
        w.writeRaw("{")
        for (i, v) in values.enumerated() {
            if i > 0 { w.writeRaw(",") }
            w.writeString(v.field)
            w.writeRaw(":")
            w.writeString(v.text)
        }
        w.closeObject()
    }
}
