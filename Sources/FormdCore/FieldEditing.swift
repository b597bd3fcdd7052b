/// User edits and key presses: typing, deleting, `setText`, Return, and what they set off.
///
/// Every change to a text goes through `applyEdit`, which records it for undo and emits
/// `textChanged` (and `validityChanged` when validity changed).
extension Form {
    /// Puts `s` in place of `lo..<hi`. Putting in the very bytes that are there already
    /// (inserting nothing at the caret, pasting a selection over itself, `setText` with the
    /// text it has) is no change: no undo step and no `textChanged`; only the caret goes
    /// where the edit would have put it, after the range, with `selectionChanged` if it
    /// moved. Except in a masked field, where that would tell whether a guess equals the
    /// hidden text: there every edit but inserting nothing at the caret is one, with its
    /// undo step and `textChanged`.
    mutating func applyEdit(_ i: Int, _ lo: Cursor, _ hi: Cursor, _ s: String, kind: EditHistory.Kind?) {
        if fields[i].buffer.holds(s, from: lo, to: hi) && (s.isEmpty || !fields[i].attributes.masksText) {
            if fields[i].buffer.anchor != hi || fields[i].buffer.head != hi { setSelection(i, anchor: hi, head: hi) }
            return
        }
        let (change, validityChanged) = replaceText(i, lo, hi, with: s, kind: kind)
        emitTextChanged(i, consume change, validityChanged: validityChanged)
    }

    // These read `fields[i]` member by member: binding the whole field (or its buffer) to a
    // constant would copy it (a retain for each of its strings and arrays) on every
    // keystroke, and a copy of the buffer alive during the edit makes the text's storage
    // shared, so the edit copies the whole text instead of splicing it in place. The
    // change is consumed: its strings move into the event.
    mutating func emitTextChanged(_ i: Int, _ change: consuming CharacterChange, validityChanged: Bool = false) {
        emit(fields[i].textChanged(consume change, encoding, withText: eventTexts.on))
        if validityChanged { emit(.validityChanged(field: fields[i].id, validity: fields[i].validity)) }
    }

    mutating func emitSelectionChanged(_ i: Int) {
        let masked = fields[i].attributes.masksText
        emit(.selectionChanged(field: fields[i].id, selection: fields[i].buffer.selection(encoding, masked: masked)))
    }

    /// Rule 6 and the filters: why putting `s` in place of `lo..<hi` would be refused.
    /// Mutating (it changes nothing) so that it reads the form where it lies: called on
    /// a mutating caller's `self`, a non-mutating method is given a copy of the form.
    mutating func refusal(_ i: Int, replacing lo: Cursor, _ hi: Cursor, with s: String) -> RejectReason? {
        if !fields[i].attributes.enabled { return .disabled }
        if !fields[i].attributes.accepts(s) { return .inputFilter }
        if let max = fields[i].attributes.maxLength {
            // Count the window the edit touches, so a combining mark that merges with its
            // neighbour does not count as a character.
            let b = fields[i].buffer
            let from = b.before(lo), to = b.after(hi)
            let window = String(b.text[from.index..<lo.index]) + s + String(b.text[hi.index..<to.index])
            if fields[i].length - (to.offset - from.offset) + window.count > max { return .maxLength }
        }
        return nil
    }

    mutating func reject(_ i: Int, _ reason: RejectReason) -> CommandResult {
        emit(.changeRejected(field: fields[i].id, reason: reason))
        return .edit(applied: false, reason: reason)
    }

    /// `setText`: the whole text at once, caret at the end; one undo step.
    mutating func setText(_ i: Int, _ text: String) -> CommandResult {
        let start = fields[i].buffer.start, end = fields[i].buffer.end
        if let reason = refusal(i, replacing: start, end, with: text) { return reject(i, reason) }
        // Compared by bytes in applyEdit: a decomposed "é" replacing a composed one is a change.
        applyEdit(i, start, end, text, kind: .other)
        return .edit(applied: true, reason: nil)
    }

    /// `insertText`: typing. Replaces the selection; consecutive inserts are one undo
    /// step; with `autoAdvance`, filling `maxLength` moves focus on.
    mutating func insertText(_ i: Int, _ text: String) -> CommandResult {
        let lower = fields[i].buffer.lower, upper = fields[i].buffer.upper
        if let reason = refusal(i, replacing: lower, upper, with: text) { return reject(i, reason) }
        applyEdit(i, lower, upper, text, kind: .typing)
        advanceIfFilled(i)
        return .edit(applied: true, reason: nil)
    }

    /// `autoAdvance`: when what the person put into the first responder (typing or a
    /// paste) fills `maxLength`, focus moves on.
    mutating func advanceIfFilled(_ i: Int) {
        if fields[i].attributes.autoAdvance, responder == i, let max = fields[i].attributes.maxLength,
           fields[i].length == max {
            advance(from: i)
        }
    }

    /// Focus moves on as Return with `next` does: to the next field that can take it, or
    /// nowhere when this is the last.
    mutating func advance(from i: Int) {
        if let n = nextFocusable(after: i) {
            moveFocus(to: n)
        } else if responder == i {
            moveFocus(to: nil)
        }
    }

    /// `delete`: the selection if there is one, else one unit in `direction`. Backward
    /// deletes are Backspace: `deletePressed` first (masked text), and on an empty field
    /// `deleteOnEmpty: focusPrevious` steps back (rule 5).
    mutating func delete(_ i: Int, direction: DeleteDirection, unit: TextUnit) -> CommandResult {
        if !fields[i].attributes.enabled { return reject(i, .disabled) }
        if direction == .backward { emit(.deletePressed(field: fields[i].id, textBefore: fields[i].display)) }
        let range: (Cursor, Cursor)
        switch fields[i].buffer.deletion(direction: direction, unit: unit, masked: fields[i].attributes.masksText) {
        case .selection(let lower, let upper):
            applyEdit(i, lower, upper, "", kind: .other)
            return .edit(applied: true, reason: nil)
        case .empty:
            let result = reject(i, .empty)
            if direction == .backward && fields[i].attributes.deleteOnEmpty == .focusPrevious,
               let p = previousFocusable(before: i) {
                moveFocus(to: p)
            }
            return result
        case .range(let lower, let upper):
            range = (lower, upper)
        }
        if range.0 == range.1 { return reject(i, .boundary) }
        applyEdit(i, range.0, range.1, "", kind: (direction, unit) == (.backward, .character) ? .deleting : .other)
        return .edit(applied: true, reason: nil)
    }

    /// Rule 4: Return, then the field's `returnAction`.
    mutating func pressReturn(_ i: Int) -> CommandResult {
        let returnAction = fields[i].attributes.returnAction
        if !fields[i].attributes.enabled || (fields[i].attributes.enablesReturnKeyAutomatically && fields[i].length == 0) {
            return .returnPressed(.ignored)
        }
        let action = ReturnOutcome(returnAction)
        emit(.returnPressed(field: fields[i].id, action: action))
        switch returnAction {
        case .next:
            advance(from: i)
        case .resign:
            if responder == i { moveFocus(to: nil) }
        case .submit:
            _ = submit(includeSecrets: false)
        case .none:
            break
        }
        return .returnPressed(action)
    }
}
