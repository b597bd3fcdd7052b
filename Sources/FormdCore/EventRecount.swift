/// A command's events as a client that counts positions in another encoding receives them.
///
/// Recounted, not re-run: each position is counted again from what its event carries and
/// from the form as the command left it, so the cost is that of the fields the events are
/// about, never that of the whole form. Exact because of how the engine reports:
/// - a masked field counts over its display, whole bullets: its positions scale;
/// - `textChanged` carries its field's new text (a daemon that recounts keeps texts in
///   events: `FormEngine.setEventTexts`) and, in `edit.removed`, what it removed;
/// - snapshots (`formDefined`, `formReset`, `fieldAdded`) carry their unmasked fields' texts;
/// - `selectionChanged`, and `fieldChanged` when masking was switched, are emitted with
///   their field as the command leaves it; whether switching masking moved the selection
///   also depends on the field before the command, which `RecountBasis` keeps.
/// A `textChanged` whose field the command left otherwise (its text or its selection in
/// the sender's encoding differ) is counted through its own text instead.
public struct EventRecount {
    /// The form as the command left it.
    let form: Form?
    let basis: RecountBasis
    let from: PositionEncoding
    let to: PositionEncoding

    /// `event`, emitted in `from`, with its positions in `to`.
    public func callAsFunction(_ event: FormEvent) -> FormEvent {
        switch event {
        case .textChanged(let id, let text, let length, let edit, let selection):
            let (e, s) = textChanged(id, text: text, length: length, edit: edit, selection: selection)
            return .textChanged(field: id, text: text, length: length, edit: e, selection: s)
        case .selectionChanged(let id, let selection):
            return .selectionChanged(field: id, selection: selectionChanged(id, selection))
        case .fieldChanged(let id, var changes) where changes.display != nil:
            changes.selection = maskingSwitched(id, changes.selection)
            return .fieldChanged(field: id, changes: changes)
        case .formDefined(let state):
            return .formDefined(snapshot(state))
        case .formReset(let state):
            return .formReset(snapshot(state))
        case .fieldAdded(let field, let index):
            return .fieldAdded(snapshot(field), index: index)
        default:
            return event
        }
    }

    /// Field `id` as the command left it: its buffer and whether it is masked.
    private func field(_ id: String) -> (buffer: TextBuffer, masked: Bool)? {
        guard let form, let i = try? form.index(of: id) else { return nil }
        return (form.fields[i].buffer, form.fields[i].attributes.masksText)
    }

    private func masked(_ r: TextRange) -> TextRange {
        TextRange(start: from.recountMasked(r.start, to: to), end: from.recountMasked(r.end, to: to), backward: r.backward)
    }

    private func through(_ text: String, _ r: TextRange) -> TextRange {
        TextRange(start: from.recount(r.start, in: text, to: to), end: from.recount(r.end, in: text, to: to), backward: r.backward)
    }

    private func textChanged(_ id: String, text: String?, length: Int, edit: TextEdit,
                             selection: TextRange) -> (TextEdit, TextRange) {
        // Masked: the whole display gave way to the new one.
        guard let text else {
            return (TextEdit(start: 0, end: from.recountMasked(edit.end, to: to), text: edit.text), masked(selection))
        }
        // The text before the edit is the same in the old and the new text.
        let start: Int, after: TextRange
        if text.utf8.count == length {
            // One byte a character: ASCII, counted alike in every encoding.
            (start, after) = (edit.start, selection)
        } else if let f = field(id), !f.masked, sameText(f.buffer.text, text), f.buffer.selection(from, masked: false) == selection {
            let b = f.buffer
            start = b.position(b.cursor(atBoundary: edit.start, from), to, masked: false)
            after = b.selection(to, masked: false)
        } else {
            (start, after) = (from.recount(edit.start, in: text, to: to), through(text, selection))
        }
        return (TextEdit(start: start, end: start + to.measure(edit.removed), text: edit.text, removed: edit.removed), after)
    }

    /// Whether `a` and `b` hold the same bytes: at once when they share their storage (an
    /// event's text and its field's, when the command left the field so).
    private func sameText(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let shared = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in x.baseAddress == y.baseAddress }
        }
        return shared == true || sameBytes(a, b)
    }

    private func selectionChanged(_ id: String, _ selection: TextRange) -> TextRange {
        guard let f = field(id) else {
            assertionFailure("selectionChanged about \(id), which the command did not leave in its form")
            return selection
        }
        assert(f.buffer.selection(from, masked: f.masked) == selection, "selectionChanged about \(id) left otherwise by its command")
        return f.buffer.selection(to, masked: f.masked)
    }

    /// `fieldChanged`'s selection when masking was switched: there when that moved it.
    private func maskingSwitched(_ id: String, _ selection: TextRange?) -> TextRange? {
        guard let now = field(id), let old = basis.configured, old.id == id else {
            assertionFailure("fieldChanged switched the masking of \(id) without a configuration command naming it")
            return selection
        }
        func moved(_ e: PositionEncoding) -> TextRange? {
            let s = now.buffer.selection(e, masked: now.masked)
            return s == old.buffer.selection(e, masked: old.masked) ? nil : s
        }
        assert(moved(from) == selection, "fieldChanged about \(id) left otherwise by its command")
        return moved(to)
    }

    private func snapshot(_ state: FormSnapshot) -> FormSnapshot {
        var state = state
        for k in state.fields.indices { state.fields[k].selection = selection(of: state.fields[k]) }
        return state
    }

    private func snapshot(_ field: FieldSnapshot) -> FieldSnapshot {
        var field = field
        field.selection = selection(of: field)
        return field
    }

    private func selection(of field: FieldSnapshot) -> TextRange {
        if field.attributes.masksText { return masked(field.selection) }
        // ASCII (one byte a character) counts alike in every encoding.
        guard let text = field.text, text.utf8.count != field.length else { return field.selection }
        return through(text, field.selection)
    }
}

/// What recounting a command's events needs from before the command: the field a
/// configuration command names (whether switching its masking moved its selection
/// depends on both sides), kept at the cost of that one field.
public struct RecountBasis: Sendable {
    var configured: (id: String, buffer: TextBuffer, masked: Bool)? = nil

    /// Nothing from before: enough for every command but a configuration command.
    public init() {}

    init(configured: (id: String, buffer: TextBuffer, masked: Bool)?) {
        self.configured = configured
    }
}
