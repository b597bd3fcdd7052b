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

    /// The steps that can be undone, oldest first, are `undoSteps[undoStart...]`: the ones
    /// before `undoStart` fell past `limit` and are removed in bulk once they outnumber the
    /// live ones, so a field with a full history pays O(1) per step, not a shift of `limit`.
    private var undoSteps: [Step] = []
    private var undoStart = 0
    private var redoStack: [Step] = []
    /// False after anything that ends a typing or deleting run.
    private var open = false
    let limit: Int

    init(limit: Int) { self.limit = limit }

    static func == (a: EditHistory, b: EditHistory) -> Bool {
        a.limit == b.limit && a.open == b.open && a.redoStack == b.redoStack
            && a.undoSteps[a.undoStart...].elementsEqual(b.undoSteps[b.undoStart...])
    }

    /// Takes the step (`consuming`) to store it without a copy.
    mutating func record(_ step: consuming Step) {
        redoStack.removeAll()
        // Grow the last step in place: holding a copy of it would make every keystroke
        // copy the whole typed run.
        let n = undoSteps.count - 1
        if open, n >= undoStart, undoSteps[n].kind == step.kind {
            if step.kind == .typing && step.removed.isEmpty
                && step.startUTF8 == undoSteps[n].startUTF8 + undoSteps[n].inserted.utf8.count {
                undoSteps[n].inserted += step.inserted
                return
            }
            if step.kind == .deleting && step.inserted.isEmpty
                && step.startUTF8 + step.removed.utf8.count == undoSteps[n].startUTF8 {
                undoSteps[n].removed.insert(contentsOf: step.removed, at: undoSteps[n].removed.startIndex)
                undoSteps[n].startUTF8 = step.startUTF8
                return
            }
        }
        let kind = step.kind
        undoSteps.append(step)
        let live = undoSteps.count - undoStart
        if live > limit { undoStart += live - limit }
        if undoStart > undoSteps.count - undoStart {
            undoSteps.removeFirst(undoStart)
            undoStart = 0
        }
        open = kind != .other
    }

    /// Bytes the next undo adds to the text (negative when it shortens it).
    var undoGrowth: Int {
        guard undoSteps.count > undoStart else { return 0 }
        let step = undoSteps[undoSteps.count - 1]
        return step.removed.utf8.count - step.inserted.utf8.count
    }
    /// Bytes the next redo adds to the text.
    var redoGrowth: Int { redoStack.last.map { $0.inserted.utf8.count - $0.removed.utf8.count } ?? 0 }

    /// Ends the current typing or deleting run.
    mutating func close() { open = false }

    mutating func popUndo() -> Step? {
        open = false
        guard undoSteps.count > undoStart, let step = undoSteps.popLast() else { return nil }
        redoStack.append(step)
        return step
    }

    mutating func popRedo() -> Step? {
        open = false
        guard let step = redoStack.popLast() else { return nil }
        undoSteps.append(step)
        return step
    }

    mutating func clear() {
        undoSteps.removeAll()
        undoStart = 0
        redoStack.removeAll()
        open = false
    }
}
