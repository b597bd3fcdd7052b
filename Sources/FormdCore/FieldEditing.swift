/// User edits and key presses: `setText`, `delete`, Return, and what they set off.
extension Form {
    /// Sets field `i`'s text, emitting `textChanged` and, if it changed, `validityChanged`.
    mutating func replaceText(_ i: Int, with text: String, length: Int) {
        let validityChanged = fields[i].setText(text, length: length)
        emitTextChanged(i, validityChanged: validityChanged)
    }

    private mutating func emitTextChanged(_ i: Int, validityChanged: Bool) {
        let f = fields[i]
        emit(.textChanged(field: f.id, text: f.visibleText, display: f.display, length: f.length))
        if validityChanged { emit(.validityChanged(field: f.id, validity: f.validity)) }
    }

    /// Rule 6: a user edit is refused on a disabled field or past `maxLength`.
    mutating func setText(_ i: Int, _ text: String) -> CommandResult {
        if !fields[i].attributes.enabled { return reject(i, .disabled) }
        let length = text.count
        if let max = fields[i].attributes.maxLength, length > max { return reject(i, .maxLength) }
        if text != fields[i].text { replaceText(i, with: text, length: length) }
        return .edit(applied: true, reason: nil)
    }

    mutating func reject(_ i: Int, _ reason: RejectReason) -> CommandResult {
        emit(.changeRejected(field: fields[i].id, reason: reason))
        return .edit(applied: false, reason: reason)
    }

    /// Rule 5: Backspace. `deletePressed` carries the text before (masked when secure);
    /// on an empty field there is nothing to delete (`changeRejected`, like every refused
    /// edit), and `deleteOnEmpty: focusPrevious` then steps back.
    mutating func deleteBackward(_ i: Int) -> CommandResult {
        if !fields[i].attributes.enabled { return reject(i, .disabled) }
        emit(.deletePressed(field: fields[i].id, textBefore: fields[i].display))
        if fields[i].length == 0 {
            let result = reject(i, .empty)
            if fields[i].attributes.deleteOnEmpty == .focusPrevious, let p = previousFocusable(before: i) {
                moveFocus(to: p)
            }
            return result
        }
        let validityChanged = fields[i].removeLastCharacter()
        emitTextChanged(i, validityChanged: validityChanged)
        return .edit(applied: true, reason: nil)
    }

    /// Rule 4: Return, then the field's `returnAction`.
    mutating func pressReturn(_ i: Int) -> CommandResult {
        let a = fields[i].attributes
        if !a.enabled || (a.enablesReturnKeyAutomatically && fields[i].length == 0) {
            return .returnPressed(.ignored)
        }
        let action = ReturnOutcome(rawValue: a.returnAction.rawValue)!
        emit(.returnPressed(field: fields[i].id, action: action))
        switch a.returnAction {
        case .next:
            if let n = nextFocusable(after: i) {
                moveFocus(to: n)
            } else if responder == i {
                moveFocus(to: nil)
            }
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
