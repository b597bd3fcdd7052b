/// Selecting and moving the caret.
extension Form {
    /// `select`: positions in the client's encoding; `start` stays fixed if the selection
    /// is later extended, so `start > end` selects backwards.
    mutating func select(_ i: Int, start: Int, end: Int) throws(FormError) -> CommandResult {
        let b = fields[i].buffer
        let masked = fields[i].attributes.masksText
        let anchor = try b.cursor(at: start, encoding, masked: masked)
        let head = try b.cursor(at: end, encoding, masked: masked)
        setSelection(i, anchor: anchor, head: head)
        return .selection(fields[i].buffer.selection(encoding, masked: masked))
    }

    mutating func moveCaret(_ i: Int, to target: CaretTarget, extend: Bool) -> CommandResult {
        let b = fields[i].buffer
        let masked = fields[i].attributes.masksText
        let collapse = b.hasSelection && !extend
        let head: Cursor
        switch target {
        case .start: head = b.start
        case .end: head = b.end
        case .left: head = collapse ? b.lower : b.before(b.head)
        case .right: head = collapse ? b.upper : b.after(b.head)
        case .wordLeft: head = b.wordStart(before: b.head, masked: masked)
        case .wordRight: head = b.wordEnd(after: b.head, masked: masked)
        }
        setSelection(i, anchor: extend ? b.anchor : head, head: head)
        return .selection(fields[i].buffer.selection(encoding, masked: masked))
    }

    /// Moves the selection, ending any typing run, and reports it if it moved.
    mutating func setSelection(_ i: Int, anchor: Cursor, head: Cursor) {
        let before = fields[i].buffer.selection(encoding, masked: fields[i].attributes.masksText)
        fields[i].select(anchor: anchor, head: head)
        if fields[i].buffer.selection(encoding, masked: fields[i].attributes.masksText) != before {
            emitSelectionChanged(i)
        }
    }
}
