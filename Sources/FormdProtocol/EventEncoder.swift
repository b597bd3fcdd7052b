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
        w.writeString(record.form, after: "\",\"params\":{\"form\":")
        w.writeInt(record.seq, after: ",\"seq\":")
        writeParams(record.event, textSync: textSync, to: &w)
        w.writeRaw("}}")
    }

    // Each key is written together with its value (`writeString(_:after:)`): one append
    // per member instead of two, on the path every keystroke takes.
    private static func writeParams(_ event: FormEvent, textSync: TextSync, to w: inout JSONWriter) {
        switch event {
        case .formDefined(let s), .formReset(let s):
            FieldEncoder.writeFormBody(s, to: &w)
        case .fieldAdded(let f, let index):
            w.key("field"); FieldEncoder.writeSnapshot(f, to: &w)
            w.writeInt(index, after: ",\"index\":")
        case .fieldRemoved(let id):
            w.writeString(id, after: ",\"field\":")
        case .fieldChanged(let id, let changes):
            w.writeString(id, after: ",\"field\":")
            w.key("changes"); FieldEncoder.writeChanges(changes, to: &w)
        case .textChanged(let id, let text, let length, let edit, let selection):
            w.writeString(id, after: ",\"field\":")
            if textSync == .full {
                if let text { w.writeString(text, after: ",\"text\":") }
                if let text { w.writeString(text, after: ",\"display\":") } else {
                    w.key("display")
                    FieldEncoder.writeMask(length: length, to: &w)
                }
            }
            w.writeInt(length, after: ",\"length\":")
            w.writeInt(edit.start, after: ",\"edit\":{\"start\":")
            w.writeInt(edit.end, after: ",\"end\":")
            w.writeString(edit.text, after: ",\"text\":")
            FieldEncoder.writeRange(selection, opening: "},\"selection\":{\"start\":", to: &w)
        case .selectionChanged(let id, let selection):
            w.writeString(id, after: ",\"field\":")
            FieldEncoder.writeRange(selection, opening: ",\"selection\":{\"start\":", to: &w)
        case .responderChanged(let id, let isFirst):
            w.writeString(id, after: ",\"field\":")
            w.writeRaw(isFirst ? ",\"isFirstResponder\":true" : ",\"isFirstResponder\":false")
        case .focusChanged(let from, let to):
            w.key("from"); w.writeOptionalString(from)
            w.key("to"); w.writeOptionalString(to)
        case .demandChanged(let id, let demand, let outcome):
            w.writeString(id, after: ",\"field\":")
            w.key("demand"); w.writeOptionalString(demand?.rawValue)
            w.writeString(outcome.rawValue, after: ",\"outcome\":")
        case .returnPressed(let id, let action):
            w.writeString(id, after: ",\"field\":")
            w.writeString(action.rawValue, after: ",\"action\":")
        case .deletePressed(let id, let before):
            w.writeString(id, after: ",\"field\":")
            w.writeString(before, after: ",\"textBefore\":")
        case .changeRejected(let id, let reason):
            w.writeString(id, after: ",\"field\":")
            w.writeString(reason.rawValue, after: ",\"reason\":")
        case .validityChanged(let id, let validity):
            w.writeString(id, after: ",\"field\":")
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
