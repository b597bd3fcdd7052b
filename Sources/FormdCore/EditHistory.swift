/// A field's undo and redo stacks.
///
/// A step records the raw replacement (byte offset, removed, inserted) and the selection
/// before it, so undo puts back both text and selection. Consecutive typing coalesces
/// into one step, and so does a run of Backspaces, as in a native text field; anything
/// else (a caret move, a paste, `setText`) ends the run.
struct EditHistory: Equatable, Sendable {
    enum Kind: Equatable, Sendable { case typing, deleting, other }

    struct Step: Equatable, Sendable {
        var kind: Kind
        var startUTF8: Int
        var removed: String
        var inserted: String
        var anchorBeforeUTF8: Int
        var headBeforeUTF8: Int
    }

    private(set) var undoStack: [Step] = []
    private(set) var redoStack: [Step] = []
    /// False after anything that ends a typing or deleting run.
    private var open = false
    let limit: Int

    init(limit: Int) { self.limit = limit }

    mutating func record(_ step: Step) {
        redoStack.removeAll()
        // Grow the last step in place: holding a copy of it would make every keystroke
        // copy the whole typed run.
        let n = undoStack.count - 1
        if open, n >= 0, undoStack[n].kind == step.kind {
            if step.kind == .typing && step.removed.isEmpty
                && step.startUTF8 == undoStack[n].startUTF8 + undoStack[n].inserted.utf8.count {
                undoStack[n].inserted += step.inserted
                return
            }
            if step.kind == .deleting && step.inserted.isEmpty
                && step.startUTF8 + step.removed.utf8.count == undoStack[n].startUTF8 {
                undoStack[n].removed.insert(contentsOf: step.removed, at: undoStack[n].removed.startIndex)
                undoStack[n].startUTF8 = step.startUTF8
                return
            }
        }
        undoStack.append(step)
        if undoStack.count > limit { undoStack.removeFirst(undoStack.count - limit) }
        open = step.kind != .other
    }

    /// Ends the current typing or deleting run.
    mutating func close() { open = false }

    mutating func popUndo() -> Step? {
        open = false
        guard let step = undoStack.popLast() else { return nil }
        redoStack.append(step)
        return step
    }

    mutating func popRedo() -> Step? {
        open = false
        guard let step = redoStack.popLast() else { return nil }
        undoStack.append(step)
        return step
    }

    mutating func clear() {
        undoStack.removeAll()
        redoStack.removeAll()
        open = false
    }
}
