/// A field's undo and redo stacks.
///
/// A step records the raw replacement (byte offset, removed, inserted) and the selection
/// before it, so undo puts back both text and selection. Consecutive typing coalesces
/// into one step, and so does a run of Backspaces, as in a native text field; anything
/// else (a caret move, a paste, `setText`) ends the run.
///
/// The history keeps `bytes`, what its live steps cost against the text budget
/// (`HistoryBudget.swift`), and the change in it not yet reported to the engine.
struct EditHistory: Equatable, Sendable {
    enum Kind: Equatable, Sendable { case typing, deleting, other }

    /// What a step costs beyond its text: the step itself (72 bytes), held in an array
    /// that may be up to twice the size of its live steps.
    static let stepOverhead = 128

    struct Step: Equatable, Sendable {
        var kind: Kind
        var startUTF8: Int
        var removed: String
        var inserted: String
        var anchorBeforeUTF8: Int
        var headBeforeUTF8: Int
        /// When the step was last made or grown, on the engine's history clock: the
        /// budget drops the oldest steps first. Bookkeeping, not part of the step's value.
        var serial = 0

        init(kind: Kind, startUTF8: Int, removed: String, inserted: String, anchorBeforeUTF8: Int, headBeforeUTF8: Int) {
            self.kind = kind
            self.startUTF8 = startUTF8
            self.removed = removed
            self.inserted = inserted
            self.anchorBeforeUTF8 = anchorBeforeUTF8
            self.headBeforeUTF8 = headBeforeUTF8
        }

        static func == (a: Step, b: Step) -> Bool {
            a.kind == b.kind && a.startUTF8 == b.startUTF8 && a.removed == b.removed && a.inserted == b.inserted
                && a.anchorBeforeUTF8 == b.anchorBeforeUTF8 && a.headBeforeUTF8 == b.headBeforeUTF8
        }

        /// Bytes the step holds against the text budget.
        var cost: Int { removed.utf8.count + inserted.utf8.count + EditHistory.stepOverhead }

        /// Lets go of the step's text once it can no longer be undone.
        mutating func release() {
            removed = ""
            inserted = ""
        }
    }

    /// The steps that can be undone, oldest first, are `undoSteps[undoStart...]`: the ones
    /// before `undoStart` fell past `limit` (their text already released) and are removed
    /// in bulk once they outnumber the live ones, so a field with a full history pays
    /// O(1) per step, not a shift of `limit`.
    private var undoSteps: [Step] = []
    private var undoStart = 0
    /// Undone steps, the next to redo last: their serials fall towards the top.
    private var redoStack: [Step] = []
    /// False after anything that ends a typing or deleting run.
    private var open = false
    let limit: Int
    /// The cost of every live step, undo and redo.
    private(set) var bytes = 0
    /// The change in `bytes` since `settle` or `takeChange` last reported it.
    private var unsettled = 0
    /// The last undo step was made or grown since `settle` last stamped it.
    private var grown = false
    /// The number of the engine's entry for this history, or -1 (`HistoryBudget.swift`).
    var entry = -1

    init(limit: Int) { self.limit = limit }

    static func == (a: EditHistory, b: EditHistory) -> Bool {
        a.limit == b.limit && a.open == b.open && a.redoStack == b.redoStack
            && a.undoSteps[a.undoStart...].elementsEqual(b.undoSteps[b.undoStart...])
    }

    /// Takes the step (`consuming`) to store it without a copy.
    mutating func record(_ step: consuming Step) {
        clearRedo()
        grown = true
        // Grow the last step in place: holding a copy of it would make every keystroke
        // copy the whole typed run.
        let n = undoSteps.count - 1
        if open, n >= undoStart, undoSteps[n].kind == step.kind {
            if step.kind == .typing && step.removed.isEmpty
                && step.startUTF8 == undoSteps[n].startUTF8 + undoSteps[n].inserted.utf8.count {
                undoSteps[n].inserted += step.inserted
                account(step.inserted.utf8.count)
                return
            }
            if step.kind == .deleting && step.inserted.isEmpty
                && step.startUTF8 + step.removed.utf8.count == undoSteps[n].startUTF8 {
                undoSteps[n].removed.insert(contentsOf: step.removed, at: undoSteps[n].removed.startIndex)
                undoSteps[n].startUTF8 = step.startUTF8
                account(step.removed.utf8.count)
                return
            }
        }
        let kind = step.kind
        account(step.cost)
        // Until `settle` stamps it, a step bears the serial of the one before it, so serials
        // never fall even when a command makes two.
        if let last = undoSteps.last { step.serial = last.serial }
        undoSteps.append(step)
        let live = undoSteps.count - undoStart
        if live > limit { dropOldest(live - limit) }
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
        account(-bytes)
        undoSteps.removeAll()
        undoStart = 0
        redoStack.removeAll()
        open = false
        grown = false
    }

    /// Reports the change in `bytes` since the last report, and stamps the last undo step
    /// with `clock` if it was made or grown since (`stamped`). A history with steps and no
    /// entry in the engine takes entry number `next` (`queued`).
    mutating func settle(clock: Int, next: Int) -> (change: Int, stamped: Bool, queued: Bool) {
        var stamped = false, queued = false
        if grown {
            grown = false
            if undoSteps.count > undoStart {
                undoSteps[undoSteps.count - 1].serial = clock
                stamped = true
                if entry < 0 {
                    entry = next
                    queued = true
                }
            }
        }
        return (takeChange(), stamped, queued)
    }

    /// Reports the change in `bytes` since the last report.
    mutating func takeChange() -> Int {
        defer { unsettled = 0 }
        return unsettled
    }

    /// What `settle` has reported of `bytes` so far.
    var settledBytes: Int { bytes - unsettled }

    /// The serial of the oldest live step: the first undo step, else the top of the redo stack.
    var oldestSerial: Int? {
        undoSteps.count > undoStart ? undoSteps[undoStart].serial : redoStack.last?.serial
    }

    /// Calls `body` with the serial and cost of every live step.
    func forEachStep(_ body: (_ serial: Int, _ cost: Int) -> Void) {
        for step in undoSteps[undoStart...] { body(step.serial, step.cost) }
        for step in redoStack { body(step.serial, step.cost) }
    }

    /// Drops every step stamped before `serial`, and the whole redo stack if one of its
    /// steps was (a redo step cannot be made without the ones above it). Returns the
    /// bytes freed; they are already settled.
    mutating func drop(before serial: Int) -> Int {
        let before = bytes
        if let next = redoStack.last, next.serial < serial { clearRedo() }
        var count = 0
        while undoStart + count < undoSteps.count && undoSteps[undoStart + count].serial < serial { count += 1 }
        dropOldest(count)
        if undoSteps.count == undoStart { open = false }
        // Trimming is rare: give the slots back at once, not at the next bulk removal.
        if undoStart > 0 {
            undoSteps = Array(undoSteps[undoStart...])
            undoStart = 0
        }
        unsettled += before - bytes
        return before - bytes
    }

    /// Drops the `count` oldest undo steps.
    private mutating func dropOldest(_ count: Int) {
        for i in undoStart..<undoStart + count {
            account(-undoSteps[i].cost)
            undoSteps[i].release()
        }
        undoStart += count
        if undoStart > undoSteps.count - undoStart {
            undoSteps.removeFirst(undoStart)
            undoStart = 0
        }
    }

    private mutating func clearRedo() {
        if redoStack.isEmpty { return }
        for step in redoStack { account(-step.cost) }
        redoStack.removeAll()
    }

    private mutating func account(_ change: Int) {
        bytes += change
        unsettled += change
    }
}
