/// The edit menu (cut, copy, paste, select all, delete) and undo/redo.
extension Form {
    mutating func editAction(_ i: Int, _ action: EditAction, text: String?) -> CommandResult {
        let a = fields[i].attributes
        guard a.offers(action) else { return .editAction(performed: false, text: nil, reason: .unsupported) }
        guard a.enabled else { return .editAction(performed: false, text: nil, reason: .disabled) }
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
        guard let step = fields[i].history.popUndo() else { return .edit(applied: false, reason: .nothingToUndo) }
        let b = fields[i].buffer
        let lo = b.cursor(utf8: step.startUTF8)
        let hi = b.cursor(utf8: step.startUTF8 + step.inserted.utf8.count)
        let (change, validityChanged) = fields[i].replace(lo, hi, with: step.removed, kind: nil)
        let after = fields[i].buffer
        fields[i].select(anchor: after.cursor(utf8: step.anchorBeforeUTF8), head: after.cursor(utf8: step.headBeforeUTF8))
        emitTextChanged(i, change, validityChanged: validityChanged)
        return .edit(applied: true, reason: nil)
    }

    /// Redo makes the step again; the caret ends after what it inserted.
    mutating func redo(_ i: Int) -> CommandResult {
        if !fields[i].attributes.enabled { return reject(i, .disabled) }
        guard let step = fields[i].history.popRedo() else { return .edit(applied: false, reason: .nothingToRedo) }
        let b = fields[i].buffer
        let lo = b.cursor(utf8: step.startUTF8)
        let hi = b.cursor(utf8: step.startUTF8 + step.removed.utf8.count)
        let (change, validityChanged) = fields[i].replace(lo, hi, with: step.inserted, kind: nil)
        emitTextChanged(i, change, validityChanged: validityChanged)
        return .edit(applied: true, reason: nil)
    }
}
