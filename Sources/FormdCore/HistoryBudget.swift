/// `maxUndoText`: what the undo and redo histories of all fields hold together is bounded,
/// and the bound never refuses an edit: once a command is carried out, if the engine's
/// history log (`UndoLog`) costs more than the budget, its oldest records are dropped
/// until it costs at most seven eighths of it.
///
/// A record costs the bytes it removed and inserted plus `UndoLog.recordOverhead`, from
/// when it is made until the log drops it or it goes out of reach; the log adds up each
/// change as it makes it, so its total is exact after every command, and trimming touches
/// no field: a field's stacks end where the log no longer holds their records.
extension FormEngine {
    /// Adds up what form `f`'s command changed in the text held (`TextBudget.swift`), and
    /// trims the history log if the budget is passed.
    @inline(__always)
    mutating func settleTallies(of f: Int) {
        if storage[f].textTally.growth != 0 {
            heldText += storage[f].textTally.growth
            storage[f].textTally.growth = 0
        }
    }

    /// Drops the oldest records of the history log while it costs more than the budget.
    @inline(__always)
    mutating func trimHistory() {
        if undoLog.total > limits.maxUndoText { undoLog.drop(toAtMost: limits.maxUndoText - limits.maxUndoText / 8) }
    }

    /// Cuts off the history log's dead front, and compacts it (`UndoLog.compact`) once
    /// the dead records behind it outnumber the live ones: between commands, when every
    /// form holds its fields.
    @inline(__always)
    mutating func compactHistory() {
        undoLog.trimFront()
        if undoLog.compactionDue { compactHistoryNow() }
    }

    private mutating func compactHistoryNow() {
        let fields = storage.reduce(0) { $0 + $1.fields.count }
        var log = UndoLog()
        swap(&log, &undoLog)
        defer { swap(&log, &undoLog) }
        log.compact(fields: fields) { visit in
            for f in storage.indices {
                for i in storage[f].fields.indices { visit(&storage[f].fields[i].history) }
            }
        }
    }

    /// UTF-8 bytes the undo histories cost (`UndoLog`): a full count, for tests and invariants.
    public var heldHistoryBytes: Int { undoLog.recount }

    /// What the engine counts the histories at: equal to `heldHistoryBytes` after every command.
    public var countedHistoryBytes: Int { undoLog.total }
}
