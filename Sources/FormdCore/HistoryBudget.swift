/// `maxUndoText`: what the undo and redo histories of all fields hold together is bounded,
/// and the bound never refuses an edit: once a command is carried out, if the histories
/// pass the budget, the oldest steps of the whole daemon are dropped until they cost at
/// most seven eighths of it.
///
/// A step costs the bytes it removed and inserted plus `EditHistory.stepOverhead`. A
/// field's history keeps what its steps cost as they change; the engine adds up each
/// change: the fields a command edited (`Form.noteHistory`), settled after it, and the
/// histories that go away (`forgetHistory`, `takeHistoryChange`), so the total is exact
/// after every command without visiting a field the command did not touch.
///
/// The oldest step of the daemon is found through `queue`, a min-heap with one entry per
/// field that has steps, keyed by at most the serial of its oldest step: a field's oldest
/// step only gets newer (its older ones dropped past `maxUndoSteps`, a lone step grown),
/// so keys are put right only when an entry comes to the top. Trimming drops one step a
/// heap operation, O(log fields); a step made where a field already has an entry costs
/// nothing here. Entries of fields that went away are skipped when they come to the top,
/// and swept out once they could outnumber the rest.
struct HistoryLedger: Sendable {
    /// What the histories of all fields cost (`EditHistory.bytes`), exact between commands.
    var total = 0
    /// Counts stamps: a step's serial says when it was last made or grown.
    var clock = 0
    /// A field's entry: at most the serial of its oldest step, the field's form (forms
    /// are never removed, so their indices hold), its id, and the entry's number, which
    /// the field's history holds (`EditHistory.entry`) while the entry is its own.
    struct Entry: Sendable {
        var serial: Int
        var number: Int
        var form: Int
        var field: String

        func precedes(_ other: Entry) -> Bool {
            serial < other.serial || (serial == other.serial && number < other.number)
        }
    }
    var queue: [Entry] = []
    /// The number of the last entry made.
    var numbered = 0
    /// Entries whose field went away (removed, or its form redefined or replaced).
    var orphans = 0
    /// Entries examined by trimming and sweeping, for tests to hold the work to what
    /// commands added.
    var visits = 0

    mutating func push(_ entry: Entry) {
        queue.append(entry)
        siftUp(queue.count - 1)
    }

    mutating func popTop() {
        let last = queue.removeLast()
        if !queue.isEmpty {
            queue[0] = last
            siftDown(0)
        }
    }

    /// The top entry's key rises to `serial`.
    mutating func raiseTop(to serial: Int) {
        queue[0].serial = serial
        siftDown(0)
    }

    private mutating func siftUp(_ start: Int) {
        var i = start
        while i > 0 {
            let parent = (i - 1) / 2
            if !queue[i].precedes(queue[parent]) { return }
            queue.swapAt(i, parent)
            i = parent
        }
    }

    mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            let l = 2 * i + 1, r = l + 1
            var least = i
            if l < queue.count && queue[l].precedes(queue[least]) { least = l }
            if r < queue.count && queue[r].precedes(queue[least]) { least = r }
            if least == i { return }
            queue.swapAt(i, least)
            i = least
        }
    }
}

/// A form's part of the ledger for the command being carried out. Bookkeeping, not part
/// of the form's value: forms equal in every field are equal whatever their tallies.
struct HistoryTally: Equatable, Sendable {
    /// The change in what the form's histories cost, from histories that went away.
    var growth = 0
    /// Entries of the form's fields that went away.
    var orphans = 0
    /// The field the command edited, or -1; any further ones.
    var edited = -1
    var alsoEdited: [Int] = []

    static func == (_: HistoryTally, _: HistoryTally) -> Bool { true }
}

extension Form {
    /// Field `i`'s history changed with an edit: the engine settles it after the command.
    @inline(__always)
    mutating func noteHistory(of i: Int) {
        if historyTally.edited != i {
            if historyTally.edited >= 0 { historyTally.alsoEdited.append(historyTally.edited) }
            historyTally.edited = i
        }
    }

    /// Collects the change in field `i`'s history when it was cleared.
    mutating func takeHistoryChange(of i: Int) {
        historyTally.growth += fields[i].history.takeChange()
    }

    /// Field `i`'s history is about to go (the field removed or replaced): takes out what it
    /// was counted for, and its entry.
    mutating func forgetHistory(of i: Int) {
        historyTally.growth -= fields[i].history.settledBytes
        if fields[i].history.entry >= 0 { historyTally.orphans += 1 }
    }
}

extension Form {
    /// Adds the command's changes in this form's histories (form `f`) to `ledger`,
    /// stamping the steps it made or grew: in one access to the form.
    mutating func settleTally(into ledger: inout HistoryLedger, form f: Int) {
        ledger.total += historyTally.growth
        historyTally.growth = 0
        ledger.orphans += historyTally.orphans
        historyTally.orphans = 0
        let edited = historyTally.edited
        if edited < 0 { return }
        historyTally.edited = -1
        settleEdits(of: edited, into: &ledger, form: f)
        if !historyTally.alsoEdited.isEmpty {
            let more = historyTally.alsoEdited
            historyTally.alsoEdited.removeAll(keepingCapacity: true)
            for i in more { settleEdits(of: i, into: &ledger, form: f) }
        }
    }

    /// Settles field `i` after an edit: stamps its step, and gives the field an entry if
    /// it has none.
    private mutating func settleEdits(of i: Int, into ledger: inout HistoryLedger, form f: Int) {
        let (change, stamped, queued) = fields[i].history.settle(clock: ledger.clock + 1, next: ledger.numbered + 1)
        ledger.total += change
        if stamped { ledger.clock += 1 }
        if queued {
            ledger.numbered += 1
            ledger.push(.init(serial: fields[i].history.oldestSerial ?? ledger.clock, number: ledger.numbered, form: f, field: fields[i].id))
        }
    }
}

extension FormEngine {
    /// After a command on form `f`: adds up what it changed in the histories and what its
    /// edits changed in the text held (`TextBudget.swift`), stamps the steps it made or
    /// grew, and trims the histories if the budget is passed.
    @inline(__always)
    mutating func settleTallies(of f: Int) {
        if storage[f].historyTally.edited >= 0 || storage[f].historyTally.growth != 0
            || storage[f].historyTally.orphans != 0 || storage[f].textTally.growth != 0 { settleTally(of: f) }
    }

    private mutating func settleTally(of f: Int) {
        heldText += storage[f].textTally.growth
        storage[f].textTally.growth = 0
        storage[f].settleTally(into: &historyLedger, form: f)
        if historyLedger.total > limits.maxUndoText { trimHistory() }
        if historyLedger.orphans > historyLedger.queue.count / 2 + 512 { sweepHistoryQueue() }
    }

    /// UTF-8 bytes the undo histories of all fields cost (`EditHistory.bytes`): a full
    /// count, for tests and invariants.
    public var heldHistoryBytes: Int {
        storage.reduce(0) { $0 + $1.fields.reduce(0) { $0 + $1.history.bytes } }
    }

    /// What the engine counts the histories at: equal to `heldHistoryBytes` after every command.
    public var countedHistoryBytes: Int { historyLedger.total }

    /// Entries trimming and sweeping have examined since the engine began.
    public var historyVisits: Int { historyLedger.visits }

    /// The field entry `e` stands for, if the entry is still its own.
    private mutating func owner(of e: HistoryLedger.Entry) -> Int? {
        guard let i = try? storage[e.form].index(of: e.field), storage[e.form].fields[i].history.entry == e.number else { return nil }
        return i
    }

    /// Drops the oldest steps of the daemon, one at a time, until the histories cost at
    /// most 7/8 of the budget.
    private mutating func trimHistory() {
        let goal = limits.maxUndoText - limits.maxUndoText / 8
        while historyLedger.total > goal, let top = historyLedger.queue.first {
            historyLedger.visits += 1
            guard let i = owner(of: top) else {
                historyLedger.popTop()
                historyLedger.orphans = max(0, historyLedger.orphans - 1)
                continue
            }
            guard let oldest = storage[top.form].fields[i].history.oldestSerial else {
                // Cleared (reset): the field has no entry until its next step.
                historyLedger.popTop()
                storage[top.form].fields[i].history.entry = -1
                continue
            }
            if oldest > top.serial {
                historyLedger.raiseTop(to: oldest)
                continue
            }
            historyLedger.total -= storage[top.form].fields[i].history.drop(before: oldest + 1)
            if let next = storage[top.form].fields[i].history.oldestSerial {
                historyLedger.raiseTop(to: next)
            } else {
                historyLedger.popTop()
                storage[top.form].fields[i].history.entry = -1
            }
        }
    }

    /// Keeps only the entries whose field is still there.
    private mutating func sweepHistoryQueue() {
        let queue = historyLedger.queue
        historyLedger.queue.removeAll(keepingCapacity: true)
        for e in queue {
            historyLedger.visits += 1
            if owner(of: e) != nil { historyLedger.queue.append(e) }
        }
        for i in stride(from: historyLedger.queue.count / 2 - 1, through: 0, by: -1) { historyLedger.siftDown(i) }
        historyLedger.orphans = 0
    }
}

extension FormEngine {
    /// Form `form` takes the place of `old` (a form file loaded, state restored): its
    /// histories are counted in place of the old form's. Costs what the forms hold.
    mutating func countHistory(of form: Form, replacing old: Form?) {
        historyLedger.total += form.settledHistoryBytes - (old?.settledHistoryBytes ?? 0)
        historyLedger.orphans += old?.fields.reduce(0) { $0 + ($1.history.entry >= 0 ? 1 : 0) } ?? 0
    }
}

extension Form {
    /// What the engine counts this form's histories at.
    var settledHistoryBytes: Int { fields.reduce(0) { $0 + $1.history.settledBytes } }
}
