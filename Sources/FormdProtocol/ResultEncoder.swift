import FormdCore
import FormdJSON

/// Writes a command's result object.
public enum ResultEncoder {
    public static func write(_ result: CommandResult, to w: inout JSONWriter) {
        switch result {
        case .done:
            w.writeRaw("{}")
        case .edit(let applied, let reason):
            w.writeRaw(applied ? "{\"applied\":true" : "{\"applied\":false")
            if let reason { w.writeString(reason.rawValue, after: ",\"reason\":") }
            w.closeObject()
        case .returnPressed(let action):
            w.writeString(action.rawValue, after: "{\"action\":")
            w.closeObject()
        case .demand(let outcome):
            w.writeString(outcome.rawValue, after: "{\"outcome\":")
            w.closeObject()
        case .focus(let responder, let moved):
            w.key("firstResponder", first: true); w.writeOptionalString(responder)
            w.key("moved"); w.writeBool(moved)
            w.closeObject()
        case .selection(let r):
            FieldEncoder.writeRange(r, opening: "{\"selection\":{\"start\":", to: &w)
            w.closeObject()
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
}
