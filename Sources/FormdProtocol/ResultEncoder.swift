import FormdCore
import FormdJSON

/// Writes a command's result object.
///
/// The results of keystrokes and focus moves are of a small, bounded size (`compactBound`):
/// they are written through a `JSONCursor` with one reservation, and a response holding one
/// is written whole with one (`MessageWriter.writeResponse`). The others go member by member.
public enum ResultEncoder {
    public static func write(_ result: CommandResult, to w: inout JSONWriter) {
        if let bound = compactBound(result) {
            var c = w.reserve(bound)
            writeCompact(result, &c)
            w.commit(c, reserved: bound)
            return
        }
        switch result {
        case .done, .edit, .returnPressed, .demand, .focus, .selection:
            preconditionFailure("a compact result is written above")
        case .editAction(let performed, let text, let reason):
            w.key("performed", first: true); w.writeBool(performed)
            if let text { w.key("text"); w.writeString(text) }
            if let reason { w.key("reason"); w.writeString(reason.rawValue) }
            w.closeObject()
        case .state(let s):
            w.key("form", first: true); w.writeString(s.form)
            w.key("seq"); w.writeInt(s.seq)
            FieldEncoder.writeFormBody(s, to: &w)
            w.closeObject()
        case .validation(let valid, let errors):
            w.key("valid", first: true); w.writeBool(valid)
            w.key("errors"); FieldEncoder.writeErrors(errors, to: &w)
            w.closeObject()
        case .submission(let valid, let values, let withheld, let errors):
            w.key("valid", first: true); w.writeBool(valid)
            w.key("values"); FieldEncoder.writeValues(values, to: &w)
            w.key("withheld"); w.writeStrings(withheld)
            w.key("errors"); FieldEncoder.writeErrors(errors, to: &w)
            w.closeObject()
        }
    }

    /// The most bytes a compact result takes, or nil for a result that is not compact.
    /// Inlined, as `writeCompact` is: a response switches on its result once.
    @inline(__always)
    public static func compactBound(_ result: CommandResult) -> Int? {
        switch result {
        case .done: 2
        // The words (`RejectReason`, `ReturnOutcome`, `DemandOutcome`) are at most
        // `maxWordBytes` long, which a test holds them to.
        case .edit, .returnPressed, .demand: 32 + JSONCursor.bound(utf8Count: maxWordBytes)
        case .focus(let responder, _): 48 + JSONCursor.bound(responder ?? "")
        case .selection: 64 + 2 * JSONCursor.intBound
        case .editAction, .state, .validation, .submission: nil
        }
    }

    /// The longest a word a compact result names may be.
    static var maxWordBytes: Int { 16 }

    /// A compact result (`compactBound` bytes at most).
    @inline(__always)
    public static func writeCompact(_ result: CommandResult, _ c: inout JSONCursor) {
        switch result {
        case .done:
            c.raw("{}")
        case .edit(let applied, let reason):
            // Each branch a constant: a literal chosen at run time is copied by a call.
            if applied { c.raw("{\"applied\":true") } else { c.raw("{\"applied\":false") }
            if let reason {
                c.raw(",\"reason\":")
                c.string(reason.rawValue)
            }
            c.raw("}")
        case .returnPressed(let action):
            c.raw("{\"action\":")
            c.string(action.rawValue)
            c.raw("}")
        case .demand(let outcome):
            c.raw("{\"outcome\":")
            c.string(outcome.rawValue)
            c.raw("}")
        case .focus(let responder, let moved):
            c.raw("{\"firstResponder\":")
            c.optionalString(responder)
            if moved { c.raw(",\"moved\":true}") } else { c.raw(",\"moved\":false}") }
        case .selection(let r):
            FieldEncoder.range(r, opening: "{\"selection\":{\"start\":", &c)
            c.raw("}")
        case .editAction, .state, .validation, .submission:
            preconditionFailure("not a compact result")
        }
    }
}
