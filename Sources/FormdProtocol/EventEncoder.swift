import FormdCore
import FormdJSON

/// Writes engine events as JSON-RPC notifications: method = event name, params start
/// with `form` and `seq`.
public enum EventEncoder {
    public static func name(of event: FormEvent) -> StaticString {
        switch event {
        case .formDefined: "formDefined"
        case .formReset: "formReset"
        case .fieldAdded: "fieldAdded"
        case .fieldRemoved: "fieldRemoved"
        case .fieldChanged: "fieldChanged"
        case .textChanged: "textChanged"
        case .selectionChanged: "selectionChanged"
        case .responderChanged: "responderChanged"
        case .focusChanged: "focusChanged"
        case .demandChanged: "demandChanged"
        case .returnPressed: "returnPressed"
        case .deletePressed: "deletePressed"
        case .changeRejected: "changeRejected"
        case .validityChanged: "validityChanged"
        case .submitted: "submitted"
        case .submitFailed: "submitFailed"
        }
    }

    /// Appends one notification (without the newline). `textSync` decides whether
    /// `textChanged` carries the whole text and display or only the edit.
    public static func write(_ record: EventRecord, textSync: TextSync = .full, to w: inout JSONWriter) {
        w.writeRaw("{\"jsonrpc\":\"2.0\",\"method\":\"")
        w.writeRaw(name(of: record.event))
        w.writeRaw("\",\"params\":{\"form\":")
        w.writeString(record.form)
        w.key("seq"); w.writeInt(record.seq)
        writeParams(record.event, textSync: textSync, to: &w)
        w.writeRaw("}}")
    }

    private static func writeParams(_ event: FormEvent, textSync: TextSync, to w: inout JSONWriter) {
        switch event {
        case .formDefined(let s), .formReset(let s):
            FieldEncoder.writeFormBody(s, to: &w)
        case .fieldAdded(let f, let index):
            w.key("field"); FieldEncoder.writeSnapshot(f, to: &w)
            w.key("index"); w.writeInt(index)
        case .fieldRemoved(let id):
            w.key("field"); w.writeString(id)
        case .fieldChanged(let id, let changes):
            w.key("field"); w.writeString(id)
            w.key("changes"); FieldEncoder.writeChanges(changes, to: &w)
        case .textChanged(let id, let text, let length, let edit, let selection):
            w.key("field"); w.writeString(id)
            if textSync == .full {
                if let text { w.key("text"); w.writeString(text) }
                w.key("display")
                if let text { w.writeString(text) } else { FieldEncoder.writeMask(length: length, to: &w) }
            }
            w.key("length"); w.writeInt(length)
            w.key("edit")
            w.key("start", first: true); w.writeInt(edit.start)
            w.key("end"); w.writeInt(edit.end)
            w.key("text"); w.writeString(edit.text)
            w.closeObject()
            w.key("selection"); FieldEncoder.writeRange(selection, to: &w)
        case .selectionChanged(let id, let selection):
            w.key("field"); w.writeString(id)
            w.key("selection"); FieldEncoder.writeRange(selection, to: &w)
        case .responderChanged(let id, let isFirst):
            w.key("field"); w.writeString(id)
            w.key("isFirstResponder"); w.writeBool(isFirst)
        case .focusChanged(let from, let to):
            w.key("from"); w.writeOptionalString(from)
            w.key("to"); w.writeOptionalString(to)
        case .demandChanged(let id, let demand, let outcome):
            w.key("field"); w.writeString(id)
            w.key("demand"); w.writeOptionalString(demand?.rawValue)
            w.key("outcome"); w.writeString(outcome.rawValue)
        case .returnPressed(let id, let action):
            w.key("field"); w.writeString(id)
            w.key("action"); w.writeString(action.rawValue)
        case .deletePressed(let id, let before):
            w.key("field"); w.writeString(id)
            w.key("textBefore"); w.writeString(before)
        case .changeRejected(let id, let reason):
            w.key("field"); w.writeString(id)
            w.key("reason"); w.writeString(reason.rawValue)
        case .validityChanged(let id, let validity):
            w.key("field"); w.writeString(id)
            w.key("valid"); w.writeBool(validity.isValid)
            w.key("errors"); w.writeStrings(validity.errors)
        case .submitted(let values, let withheld):
            w.key("values"); FieldEncoder.writeValues(values, to: &w)
            w.key("withheld"); w.writeStrings(withheld)
        case .submitFailed(let errors):
            w.key("errors"); FieldEncoder.writeErrors(errors, to: &w)
        }
    }
}
