/// `maxUndoText`: what the undo and redo histories of all fields hold together is bounded,
/// and the bound never refuses an edit: once a command is carried out, if the histories
/// pass the budget, the oldest steps of the whole daemon are dropped until they cost at
/// most seven eighths of it, so the next edits do not recount again.
///
/// A step costs the bytes it removed and inserted plus `EditHistory.stepOverhead`. A
/// field's history keeps what its steps cost as they change; every step comes with a
/// `textChanged` event, where the form collects the change (`Form.settleHistory`), and
/// the engine adds up each command's (`FormEngine.settleHistory`).
struct HistoryLedger: Sendable {
    /// At least what the histories of all fields cost; exact after a recount.
    var bound = 0
    /// Counts commands: a step's serial says when it was last made or grown.
    var clock = 0
}

/// A form's part of the ledger for the command being carried out. Bookkeeping, not part
/// of the form's value: forms equal in every field are equal whatever their tallies.
struct HistoryTally: Equatable, Sendable {
    /// The change in what the form's histories cost.
    var growth = 0
    /// The engine's clock for this command.
    var clock = 0

    static func == (_: HistoryTally, _: HistoryTally) -> Bool { true }
}

extension Form {
    /// Collects the change in field `i`'s history, stamping a step it made or grew.
    mutating func settleHistory(of i: Int) {
        historyTally.growth += fields[i].history.settle(clock: historyTally.clock)
    }
}

extension FormEngine {
    /// Before a command on form `f`: the clock it stamps steps with.
    mutating func startHistory(of f: Int) {
        historyLedger.clock += 1
        storage[f].historyTally.clock = historyLedger.clock
    }

    /// After a command on form `f`: adds up what it changed in the histories, and trims
    /// them if the budget is passed.
    mutating func settleHistory(of f: Int) {
        let growth = storage[f].historyTally.growth
        if growth == 0 { return }
        storage[f].historyTally.growth = 0
        historyLedger.bound += growth
        if historyLedger.bound > limits.maxUndoText { trimHistory() }
    }

    /// UTF-8 bytes the undo histories of all fields cost (`EditHistory.bytes`).
    public var heldHistoryBytes: Int {
        storage.reduce(0) { $0 + $1.fields.reduce(0) { $0 + $1.history.bytes } }
    }

    /// Recounts the histories exactly; drops the oldest steps if they do not fit.
    private mutating func trimHistory() {
        var held = 0
        for f in storage.indices {
            for i in storage[f].fields.indices {
                _ = storage[f].fields[i].history.settle(clock: historyLedger.clock)
                held += storage[f].fields[i].history.bytes
            }
        }
        historyLedger.bound = held
        if held <= limits.maxUndoText { return }
        let goal = limits.maxUndoText - limits.maxUndoText / 8
        let serial = oldestSerialToKeep(freeing: held - goal)
        for f in storage.indices {
            for i in storage[f].fields.indices {
                historyLedger.bound -= storage[f].fields[i].history.drop(before: serial)
            }
        }
    }

    /// The least serial such that the steps stamped before it cost at least `need`:
    /// found by narrowing a histogram of costs over serials, 256 buckets a pass.
    private func oldestSerialToKeep(freeing need: Int) -> Int {
        var lo = Int.max, hi = Int.min
        forEachStep { serial, _ in
            lo = min(lo, serial)
            hi = max(hi, serial + 1)
        }
        var below = 0
        while hi - lo > 1 {
            let width = (hi - lo + 255) / 256
            var buckets = [Int](repeating: 0, count: 256)
            forEachStep { serial, cost in
                if serial >= lo && serial < hi { buckets[(serial - lo) / width] += cost }
            }
            var b = 0
            while b < 255 && below + buckets[b] < need {
                below += buckets[b]
                b += 1
            }
            lo += b * width
            hi = min(hi, lo + width)
        }
        return hi
    }

    private func forEachStep(_ body: (_ serial: Int, _ cost: Int) -> Void) {
        for form in storage {
            for field in form.fields { field.history.forEachStep(body) }
        }
    }
}
