import FormdCore
import FormdJSON

/// Writes field specs and field state as the protocol shows them.
enum FieldEncoder {
    /// Every spec key with its effective value (nulls included), after `id`.
    static func writeAttributes(_ a: FieldAttributes, configuration: [String], to w: inout JSONWriter) {
        w.key("label"); w.writeOptionalString(a.label)
        w.key("placeholder"); w.writeOptionalString(a.placeholder)
        w.key("secure"); w.writeBool(a.secure)
        w.key("revealed"); w.writeBool(a.revealed)
        w.key("enabled"); w.writeBool(a.enabled)
        w.key("returnAction"); w.writeString(a.returnAction.rawValue)
        w.key("deleteOnEmpty"); w.writeString(a.deleteOnEmpty.rawValue)
        w.key("canBecomeFirstResponder"); w.writeBool(a.canBecomeFirstResponder)
        w.key("canResignFirstResponder"); w.writeBool(a.canResignFirstResponder)
        w.key("enablesReturnKeyAutomatically"); w.writeBool(a.enablesReturnKeyAutomatically)
        w.key("clearsOnBeginEditing"); w.writeBool(a.clearsOnBeginEditing)
        w.key("required"); w.writeBool(a.required)
        w.key("minLength"); w.writeOptionalInt(a.minLength)
        w.key("maxLength"); w.writeOptionalInt(a.maxLength)
        w.key("pattern"); w.writeOptionalString(a.pattern?.source)
        w.key("patternHint"); w.writeOptionalString(a.patternHint)
        w.key("inputFilter"); w.writeOptionalString(a.inputFilter?.source)
        w.key("autoAdvance"); w.writeBool(a.autoAdvance)
        w.key("supportedEditActions"); w.writeStrings(a.supportedEditActions.map(\.rawValue))
        w.key("configuration"); w.writeStrings(configuration)
        w.key("hints"); w.write(a.hints)
    }

    /// A field's whole state: spec keys, then text (only when visible), display and the
    /// derived flags.
    static func writeSnapshot(_ f: FieldSnapshot, to w: inout JSONWriter) {
        w.key("id", first: true); w.writeString(f.id)
        writeAttributes(f.attributes, configuration: f.configuration, to: &w)
        if let text = f.text { w.key("text"); w.writeString(text) }
        w.key("display"); w.writeString(f.display)
        w.key("length"); w.writeInt(f.length)
        w.key("selection"); writeRange(f.selection, to: &w)
        w.key("isFirstResponder"); w.writeBool(f.isFirstResponder)
        w.key("demand"); w.writeOptionalString(f.demand?.rawValue)
        w.key("valid"); w.writeBool(f.validity.isValid)
        w.key("errors"); writeValidationErrors(f.validity.errors, to: &w)
        w.key("dirty"); w.writeBool(f.dirty)
        w.key("visited"); w.writeBool(f.visited)
        w.key("touched"); w.writeBool(f.touched)
        if f.restoredWithoutSecret { w.key("restoredWithoutSecret"); w.writeBool(true) }
        w.closeObject()
    }

    /// The members of a form's state after `form` and `seq`: responder and fields.
    static func writeFormBody(_ s: FormSnapshot, to w: inout JSONWriter) {
        w.key("firstResponder"); w.writeOptionalString(s.firstResponder)
        w.key("fields"); w.writeRaw("[")
        for (i, f) in s.fields.enumerated() {
            if i > 0 { w.writeRaw(",") }
            writeSnapshot(f, to: &w)
        }
        w.writeRaw("]")
    }

    /// Only the keys a change set holds, as an object.
    static func writeChanges(_ c: FieldChanges, to w: inout JSONWriter) {
        var first = true
        func key(_ k: StaticString, _ w: inout JSONWriter) { w.key(k, first: first); first = false }
        let o = c.options
        if let v = o.label { key("label", &w); w.writeOptionalString(v) }
        if let v = o.placeholder { key("placeholder", &w); w.writeOptionalString(v) }
        if let v = o.secure { key("secure", &w); w.writeBool(v) }
        if let v = o.revealed { key("revealed", &w); w.writeBool(v) }
        if let v = o.enabled { key("enabled", &w); w.writeBool(v) }
        if let v = o.returnAction { key("returnAction", &w); w.writeString(v.rawValue) }
        if let v = o.deleteOnEmpty { key("deleteOnEmpty", &w); w.writeString(v.rawValue) }
        if let v = o.canBecomeFirstResponder { key("canBecomeFirstResponder", &w); w.writeBool(v) }
        if let v = o.canResignFirstResponder { key("canResignFirstResponder", &w); w.writeBool(v) }
        if let v = o.enablesReturnKeyAutomatically { key("enablesReturnKeyAutomatically", &w); w.writeBool(v) }
        if let v = o.clearsOnBeginEditing { key("clearsOnBeginEditing", &w); w.writeBool(v) }
        if let v = o.required { key("required", &w); w.writeBool(v) }
        if let v = o.minLength { key("minLength", &w); w.writeOptionalInt(v) }
        if let v = o.maxLength { key("maxLength", &w); w.writeOptionalInt(v) }
        if let v = o.pattern { key("pattern", &w); w.writeOptionalString(v?.source) }
        if let v = o.patternHint { key("patternHint", &w); w.writeOptionalString(v) }
        if let v = o.inputFilter { key("inputFilter", &w); w.writeOptionalString(v?.source) }
        if let v = o.autoAdvance { key("autoAdvance", &w); w.writeBool(v) }
        if let v = o.supportedEditActions { key("supportedEditActions", &w); w.writeStrings(v.map(\.rawValue)) }
        if let v = o.hints { key("hints", &w); w.write(v) }
        if let v = c.configuration { key("configuration", &w); w.writeStrings(v) }
        if let v = c.text { key("text", &w); w.writeString(v) }
        if let v = c.display { key("display", &w); w.writeString(v) }
        if let v = c.selection { key("selection", &w); writeRange(v, to: &w) }
        if let v = c.visited { key("visited", &w); w.writeBool(v) }
        if let v = c.touched { key("touched", &w); w.writeBool(v) }
        if first { w.writeRaw("{") }
        w.closeObject()
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
