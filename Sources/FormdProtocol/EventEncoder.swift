import FormdCore
import FormdJSON

/// Writes engine events as JSON-RPC notifications: method = event name, params start
/// with `form` and `seq`.
public enum EventEncoder {
    /// Appends one notification, and a newline after it with `newline` (NDJSON: in the
    /// event's own reservation). `textSync` decides whether `textChanged` carries the
    /// whole text and display or only the edit.
    ///
    /// The events a keystroke causes are written each in one reservation through a
    /// `JSONCursor`, sized from their strings: one capacity check per event instead of one
    /// per member. The large, rare ones (whole snapshots, value lists) go member by member.
    public static func write(_ record: EventRecord, textSync: TextSync = .full, newline: Bool = false, to w: inout JSONWriter) {
        var seqs = DecimalCounter()
        write(record, textSync: textSync, newline: newline, seqs: &seqs, to: &w)
    }

    /// `write`, with the digits of the `seq` written last (`seqs`): the events of a form
    /// come with `seq` one more each time, and the next digits are made from the last.
    public static func write(_ record: EventRecord, textSync: TextSync = .full, newline: Bool = false, seqs: inout DecimalCounter,
                             to w: inout JSONWriter) {
        // Each reservation: the opening's room, the literals written after it and the
        // bounds of the values.
        let int = JSONCursor.intBound
        switch record.event {
        case .textChanged(let id, let text, let length, let edit, let selection):
            let full = textSync == .full
            var bound = opening(record, .textChanged) &+ JSONCursor.room(",\"field\":", ",\"length\":", ",\"edit\":{\"start\":", ",\"end\":", ",\"text\":", "}}")
                &+ FieldEncoder.rangeRoom(opening: "},\"selection\":{\"start\":") &+ JSONCursor.bound(id) &+ JSONCursor.bound(edit.text) &+ 3 &* int
            if full {
                bound &+= JSONCursor.room(",\"text\":", ",\"display\":")
                    &+ (text.map { 2 &* JSONCursor.bound($0) } ?? FieldEncoder.maskBound(length: length))
            }
            w.write(upTo: bound) { c in
                open(record, .textChanged, &seqs, &c)
                c.raw(",\"field\":"); c.string(id)
                if full {
                    if let text {
                        c.raw(",\"text\":"); c.string(text)
                        c.raw(",\"display\":"); c.string(text)
                    } else {
                        c.raw(",\"display\":"); FieldEncoder.mask(length: length, &c)
                    }
                }
                c.raw(",\"length\":"); c.int(length)
                c.raw(",\"edit\":{\"start\":"); c.int(edit.start)
                c.raw(",\"end\":"); c.int(edit.end)
                c.raw(",\"text\":"); c.string(edit.text)
                FieldEncoder.range(selection, opening: "},\"selection\":{\"start\":", &c)
                close(newline, &c)
            }
        case .selectionChanged(let id, let selection):
            w.write(upTo: opening(record, .selectionChanged) &+ JSONCursor.room(",\"field\":", "}}")
                    &+ FieldEncoder.rangeRoom(opening: ",\"selection\":{\"start\":") &+ JSONCursor.bound(id)) { c in
                open(record, .selectionChanged, &seqs, &c)
                c.raw(",\"field\":"); c.string(id)
                FieldEncoder.range(selection, opening: ",\"selection\":{\"start\":", &c)
                close(newline, &c)
            }
        case .responderChanged(let id, let isFirst):
            w.write(upTo: opening(record, .responderChanged) &+ JSONCursor.room(",\"field\":", ",\"isFirstResponder\":false}}")
                    &+ JSONCursor.bound(id)) { c in
                open(record, .responderChanged, &seqs, &c)
                c.raw(",\"field\":"); c.string(id)
                // Each branch a constant: a literal chosen at run time is copied by a call.
                if isFirst { c.raw(",\"isFirstResponder\":true") } else { c.raw(",\"isFirstResponder\":false") }
                close(newline, &c)
            }
        case .focusChanged(let from, let to):
            w.write(upTo: opening(record, .focusChanged) &+ JSONCursor.room(",\"from\":", ",\"to\":", "}}")
                    &+ JSONCursor.bound(from ?? "null") &+ JSONCursor.bound(to ?? "null")) { c in
                open(record, .focusChanged, &seqs, &c)
                c.raw(",\"from\":"); c.optionalString(from)
                c.raw(",\"to\":"); c.optionalString(to)
                close(newline, &c)
            }
        case .demandChanged(let id, let demand, let outcome):
            w.write(upTo: opening(record, .demandChanged) &+ JSONCursor.room(",\"field\":", ",\"demand\":", ",\"outcome\":", "}}")
                    &+ JSONCursor.bound(id) &+ JSONCursor.bound(demand?.rawValue ?? "null") &+ JSONCursor.bound(outcome.rawValue)) { c in
                open(record, .demandChanged, &seqs, &c)
                c.raw(",\"field\":"); c.string(id)
                c.raw(",\"demand\":"); c.optionalString(demand?.rawValue)
                c.raw(",\"outcome\":"); c.string(outcome.rawValue)
                close(newline, &c)
            }
        case .returnPressed(let id, let action):
            writeFieldAnd(newline, &seqs, ",\"action\":", action.rawValue, id: id, record, .returnPressed, to: &w)
        case .deletePressed(let id, let before):
            writeFieldAnd(newline, &seqs, ",\"textBefore\":", before, id: id, record, .deletePressed, to: &w)
        case .changeRejected(let id, let reason):
            writeFieldAnd(newline, &seqs, ",\"reason\":", reason.rawValue, id: id, record, .changeRejected, to: &w)
        case .fieldRemoved(let id):
            w.write(upTo: opening(record, .fieldRemoved) &+ JSONCursor.room(",\"field\":", "}}") &+ JSONCursor.bound(id)) { c in
                open(record, .fieldRemoved, &seqs, &c)
                c.raw(",\"field\":"); c.string(id)
                close(newline, &c)
            }
        case .formDefined(let snapshot), .formReset(let snapshot):
            let name = EventName(record.event)
            w.write(upTo: opening(record, name)) { open(record, name, &seqs, &$0) }
            FieldEncoder.writeFormBody(snapshot, to: &w)
            close(newline, &w)
        case .fieldAdded(let f, let index):
            w.write(upTo: opening(record, .fieldAdded)) { open(record, .fieldAdded, &seqs, &$0) }
            w.key("field"); FieldEncoder.writeSnapshot(f, to: &w)
            w.writeInt(index, after: ",\"index\":")
            close(newline, &w)
        case .fieldChanged(let id, let changes):
            w.write(upTo: opening(record, .fieldChanged) &+ JSONCursor.room(",\"field\":", ",\"changes\":") &+ JSONCursor.bound(id)) { c in
                open(record, .fieldChanged, &seqs, &c)
                c.raw(",\"field\":"); c.string(id)
                c.raw(",\"changes\":")
            }
            FieldEncoder.writeChanges(changes, to: &w)
            close(newline, &w)
        case .validityChanged(let id, let validity):
            w.write(upTo: opening(record, .validityChanged)) { open(record, .validityChanged, &seqs, &$0) }
            w.writeString(id, after: ",\"field\":")
            w.key("valid"); w.writeBool(validity.isValid)
            w.key("errors"); FieldEncoder.writeValidationErrors(validity.errors, to: &w)
            close(newline, &w)
        case .submitted(let values, let withheld):
            w.write(upTo: opening(record, .submitted)) { open(record, .submitted, &seqs, &$0) }
            w.key("values"); FieldEncoder.writeValues(values, to: &w)
            w.key("withheld"); w.writeStrings(withheld)
            close(newline, &w)
        case .submitFailed(let errors):
            w.write(upTo: opening(record, .submitFailed)) { open(record, .submitFailed, &seqs, &$0) }
            w.key("errors"); FieldEncoder.writeErrors(errors, to: &w)
            close(newline, &w)
        }
    }

    /// Room `open` needs: its literals (the longer of the two spellings of the form), the
    /// name, the form's bound and the seq; and the newline `close` may add.
    @inline(__always)
    static func opening(_ record: EventRecord, _ name: EventName) -> Int {
        JSONCursor.room("{\"jsonrpc\":\"2.0\",\"method\":\"", "\",\"params\":{\"form\":\"default\"", ",\"seq\":", "\n")
            &+ name.spelling.utf8CodeUnitCount &+ JSONCursor.bound(record.form) &+ JSONCursor.intBound
    }

    /// `{"jsonrpc":"2.0","method":NAME,"params":{"form":FORM,"seq":SEQ`. Inlined into each
    /// case, which passes its event's name as a constant, so the name folds into constant stores.
    @inline(__always)
    static func open(_ record: EventRecord, _ name: EventName, _ seqs: inout DecimalCounter, _ c: inout JSONCursor) {
        c.raw("{\"jsonrpc\":\"2.0\",\"method\":\"")
        c.raw(name.spelling)
        // Most clients never name a form: the default one is written as a constant, not quoted.
        if record.form == FormEngine.defaultForm {
            c.raw("\",\"params\":{\"form\":\"default\"")
        } else {
            c.raw("\",\"params\":{\"form\":")
            c.string(record.form)
        }
        c.raw(",\"seq\":")
        c.int(record.seq, following: &seqs)
    }

    /// `open` of an event written on its own, with no `seq` before it to follow.
    @inline(__always)
    static func open(_ record: EventRecord, _ name: EventName, _ c: inout JSONCursor) {
        var seqs = DecimalCounter()
        open(record, name, &seqs, &c)
    }

    /// `}}` ending a notification, and the newline with `newline`: each a constant.
    @inline(__always)
    private static func close(_ newline: Bool, _ c: inout JSONCursor) {
        if newline { c.raw("}}\n") } else { c.raw("}}") }
    }

    /// `close` for the large events, written member by member.
    private static func close(_ newline: Bool, _ w: inout JSONWriter) {
        if newline { w.writeRaw("}}\n") } else { w.writeRaw("}}") }
    }

    /// An event of a field and one string member; inlined, so the key is a constant.
    @inline(__always)
    private static func writeFieldAnd(_ newline: Bool, _ seqs: inout DecimalCounter, _ key: StaticString, _ value: String, id: String, _ record: EventRecord, _ name: EventName,
                                      to w: inout JSONWriter) {
        w.write(upTo: opening(record, name) &+ JSONCursor.room(",\"field\":", key, "}}") &+ JSONCursor.bound(id) &+ JSONCursor.bound(value)) { c in
            open(record, name, &seqs, &c)
            c.raw(",\"field\":"); c.string(id)
            c.raw(key); c.string(value)
            close(newline, &c)
        }
    }
}
