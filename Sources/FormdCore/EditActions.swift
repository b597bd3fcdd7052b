/// The edit menu (cut, copy, paste, select all, delete) and undo/redo.
extension Form {
    mutating func editAction(_ i: Int, _ action: EditAction, text: String?) -> CommandResult {
        let a = fields[i].attributes
        guard a.offers(action) else { return .editAction(performed: false, text: nil, reason: .unsupported) }
        guard a.enabled else {
            // Like every refused edit, one that would have changed the text says so.
            if action == .cut || action == .paste || action == .delete {
                emit(.changeRejected(field: fields[i].id, reason: .disabled))
            }
            return .editAction(performed: false, text: nil, reason: .disabled)
        }
        let b = fields[i].buffer
        switch action {
        case .selectAll:
            setSelection(i, anchor: b.start, head: b.end)
            return .editAction(performed: true, text: nil, reason: nil)
        case .paste:
            let pasted = text ?? ""
            if let reason = refusal(i, replacing: b.lower, b.upper, with: pasted) {
                emit(.changeRejected(field: fields[i].id, reason: reason))
                return .editAction(performed: false, text: nil, reason: reason)
            }
            applyEdit(i, b.lower, b.upper, pasted, kind: .other)
            advanceIfFilled(i)
            return .editAction(performed: true, text: nil, reason: nil)
        case .copy, .cut, .delete:
            guard b.hasSelection else { return .editAction(performed: false, text: nil, reason: .noSelection) }
            let selected = String(b.selectedText)
            if action != .copy { applyEdit(i, b.lower, b.upper, "", kind: .other) }
            return .editAction(performed: true, text: action == .delete ? nil : selected, reason: nil)
        }
    }

    /// Undo puts back the text and the selection from before the step.
    mutating func undo(_ i: Int) -> CommandResult {
        if !fields[i].attributes.enabled { return reject(i, .disabled) }
        guard let step = undoLog.popUndo(&fields[i].history, text: fields[i].buffer.text) else {
            return .edit(applied: false, reason: .nothingToUndo)
        }
        let (change, validityChanged) = replaceBytes(i, step.startUTF8, step.replacedUTF8, with: step.text)
        let after = fields[i].buffer
        fields[i].select(anchor: after.cursor(utf8: step.anchorBeforeUTF8), head: after.cursor(utf8: step.headBeforeUTF8))
        emitTextChanged(i, change, validityChanged: validityChanged)
        return .edit(applied: true, reason: nil)
    }

    /// Redo makes the step again; the caret ends after what it inserted.
    mutating func redo(_ i: Int) -> CommandResult {
        if !fields[i].attributes.enabled { return reject(i, .disabled) }
        guard let step = undoLog.popRedo(&fields[i].history, text: fields[i].buffer.text) else {
            return .edit(applied: false, reason: .nothingToRedo)
        }
        let (change, validityChanged) = replaceBytes(i, step.startUTF8, step.replacedUTF8, with: step.text)
        let after = fields[i].buffer
        let caret = after.cursor(utf8: step.startUTF8 + step.text.utf8.count, roundingUp: true)
        fields[i].select(anchor: caret, head: caret)
        emitTextChanged(i, change, validityChanged: validityChanged)
        return .edit(applied: true, reason: nil)
    }

    /// Puts `s` in place of the bytes `start..<start + count` of field `i`'s text, exactly,
    /// without recording a step. A step's bytes need not be whole characters: a combining
    /// accent typed after "e" was inserted inside the cluster "é", and undoing it must
    /// leave the "e". The replaced range is widened to whole characters, carrying the
    /// bytes it takes in from either side.
    private mutating func replaceBytes(_ i: Int, _ start: Int, _ count: Int, with s: String) -> (CharacterChange, Bool) {
        let b = fields[i].buffer
        let lo = b.cursor(utf8: start)
        let hi = b.cursor(utf8: start + count, roundingUp: true)
        let scalars = b.text.unicodeScalars
        let before = String(scalars[lo.index..<b.index(utf8: start)])
        let after = String(scalars[b.index(utf8: start + count)..<hi.index])
        return replaceText(i, lo, hi, with: before + s + after, kind: nil)
    }
}
