/// The undo and redo steps of every field of the engine, in one log, in the order they
/// were made: an edit writes at the log's end (a cache line it wrote a moment ago) and
/// the budget drops the oldest records from its start, touching no field.
///
/// Each record is numbered (`number`, never reused); a field's stacks are chains of
/// records linked by number, their tops held in the field (`EditHistory`). A chain stops
/// at a number the log no longer holds. Typing that goes on where its run's text ended
/// grows the run's record when that record is the log's last, and otherwise adds a
/// record that joins it: undo and redo take a run's records together, as one step.
///
/// The budget (`--max-undo-text`) counts every record the log holds, from when it is
/// made until the log drops it: a step past `--max-undo`, a redo stack a new step
/// replaced, the history of a field removed or reset are out of reach at once and
/// counted until they are dropped or compacted away (`compact`); the last three have
/// their text let go at once.
struct UndoLog: Equatable, Sendable {
    /// What a record costs beyond its text: the record itself (72 bytes), in an array
    /// that may be up to twice the size of the records it holds.
    static let recordOverhead = 128

    struct Record: Equatable, Sendable {
        var kind: EditHistory.Kind
        /// Continues the run of the record below it on its field's stack: typing that
        /// resumed after records of other fields were made.
        var joinsPrevious: Bool
        var startUTF8: Int
        var removed: String
        var inserted: String
        var anchorBeforeUTF8: Int
        var headBeforeUTF8: Int
        /// The next record of its field's stack (older on the undo stack, newer on the
        /// redo stack), or -1.
        var link: Int

        /// Bytes the record holds against the budget.
        var cost: Int {
            @inline(__always) get { removed.utf8.count + inserted.utf8.count + UndoLog.recordOverhead }
        }
    }

    /// Undo steps each field keeps (`EngineLimits.maxUndoSteps`).
    let limit: Int
    /// The records from number `base` on; the first `dropped` of them are gone (their
    /// text released) and are removed in bulk once they outnumber the rest.
    private var records: [Record] = []
    private var base = 0
    private var dropped = 0
    /// What the records held cost, exact after every change.
    private(set) var total = 0

    /// The fewest records held before a compaction is considered (`compact`).
    let compactionFloor: Int
    /// Records held past which the next compaction is due: set by the last one.
    private var compactAt: Int
    /// The compaction's map from a record's index to its new one (`compact`).
    private var renumbered: [Int32] = []

    init(limit: Int = 0, compactionFloor: Int = 4096) {
        self.limit = limit
        self.compactionFloor = compactionFloor
        compactAt = compactionFloor
    }

    /// The number of the oldest record held: a chain reaching below it ends.
    var oldest: Int { base + dropped }
    /// The number of the last record made, or `oldest - 1` when none is held.
    private var last: Int { base + records.count - 1 }

    static func == (a: UndoLog, b: UndoLog) -> Bool {
        a.limit == b.limit && a.oldest == b.oldest && a.total == b.total
            && a.records[a.dropped...].elementsEqual(b.records[b.dropped...])
    }

    /// Records the edit that replaced `removed` at `startUTF8` by `inserted` in the field
    /// whose history is `h`. A new step clears what could be redone.
    mutating func record(_ kind: EditHistory.Kind, startUTF8: Int, removed: String, inserted: String,
                         anchorBeforeUTF8: Int, headBeforeUTF8: Int, into h: inout EditHistory) {
        if h.redoTop >= oldest { releaseText(from: h.redoTop) }
        h.redoTop = -1
        if limit <= 0 {
            h.run = nil
            return
        }
        if let run = h.run, run == kind, h.count > 0, h.undoTop >= oldest {
            if kind == .typing && removed.isEmpty && startUTF8 == h.runEnd {
                h.runEnd += inserted.utf8.count
                if h.undoTop == last {
                    total += inserted.utf8.count
                    records[records.count - 1].inserted += inserted
                } else {
                    append(Record(kind: kind, joinsPrevious: true, startUTF8: startUTF8, removed: removed, inserted: inserted,
                                  anchorBeforeUTF8: anchorBeforeUTF8, headBeforeUTF8: headBeforeUTF8, link: h.undoTop), to: &h)
                }
                return
            }
            if kind == .deleting && inserted.isEmpty && startUTF8 + removed.utf8.count == h.runEnd {
                h.runEnd = startUTF8
                if h.undoTop == last {
                    total += removed.utf8.count
                    let i = records.count - 1
                    records[i].removed.insert(contentsOf: removed, at: records[i].removed.startIndex)
                    records[i].startUTF8 = startUTF8
                } else {
                    append(Record(kind: kind, joinsPrevious: true, startUTF8: startUTF8, removed: removed, inserted: inserted,
                                  anchorBeforeUTF8: anchorBeforeUTF8, headBeforeUTF8: headBeforeUTF8, link: h.undoTop), to: &h)
                }
                return
            }
        }
        append(Record(kind: kind, joinsPrevious: false, startUTF8: startUTF8, removed: removed, inserted: inserted,
                      anchorBeforeUTF8: anchorBeforeUTF8, headBeforeUTF8: headBeforeUTF8, link: h.undoTop), to: &h)
        h.count = min(h.count + 1, Int32(clamping: limit))
        h.run = kind == .other ? nil : kind
        h.runEnd = kind == .typing ? startUTF8 + inserted.utf8.count : startUTF8
    }

    /// Puts `record` at the end of the log, on top of `h`'s undo stack.
    private mutating func append(_ record: consuming Record, to h: inout EditHistory) {
        total += record.cost
        records.append(record)
        h.undoTop = last
    }

    /// Takes the last step off `h`'s undo stack onto its redo stack.
    mutating func popUndo(_ h: inout EditHistory) -> EditHistory.Step? {
        h.run = nil
        guard h.count > 0, h.undoTop >= oldest else { return nil }
        var step = EditHistory.Step(startUTF8: .max, removed: "", inserted: "", anchorBeforeUTF8: 0, headBeforeUTF8: 0)
        while true {
            let i = h.undoTop - base
            let r = records[i]
            records[i].link = h.redoTop
            h.redoTop = h.undoTop
            h.undoTop = r.link
            // Newest first: an older record removed what lies after (Backspaces go backwards)
            // and inserted what lies before.
            step.startUTF8 = min(step.startUTF8, r.startUTF8)
            step.removed += r.removed
            step.inserted = r.inserted + step.inserted
            step.anchorBeforeUTF8 = r.anchorBeforeUTF8
            step.headBeforeUTF8 = r.headBeforeUTF8
            if !r.joinsPrevious || r.link < oldest { break }
        }
        h.count -= 1
        return step
    }

    /// Takes the next step off `h`'s redo stack back onto its undo stack.
    mutating func popRedo(_ h: inout EditHistory) -> EditHistory.Step? {
        h.run = nil
        guard h.redoTop >= oldest else {
            h.redoTop = -1
            return nil
        }
        let first = records[h.redoTop - base]
        var step = EditHistory.Step(startUTF8: .max, removed: "", inserted: "",
                                    anchorBeforeUTF8: first.anchorBeforeUTF8, headBeforeUTF8: first.headBeforeUTF8)
        while true {
            let i = h.redoTop - base
            let r = records[i]
            records[i].link = h.undoTop
            h.undoTop = h.redoTop
            h.redoTop = r.link
            step.startUTF8 = min(step.startUTF8, r.startUTF8)
            step.removed = r.removed + step.removed
            step.inserted += r.inserted
            if r.link < oldest || !records[r.link - base].joinsPrevious { break }
        }
        h.count = min(h.count + 1, Int32(clamping: limit))
        return step
    }

    /// Bytes the next undo of `h` adds to the text (negative when it shortens it).
    func undoGrowth(of h: EditHistory) -> Int {
        guard h.count > 0 else { return 0 }
        var growth = 0, n = h.undoTop
        while n >= oldest {
            let r = records[n - base]
            growth += r.removed.utf8.count - r.inserted.utf8.count
            if !r.joinsPrevious { break }
            n = r.link
        }
        return growth
    }

    /// Bytes the next redo of `h` adds to the text.
    func redoGrowth(of h: EditHistory) -> Int {
        var growth = 0, n = h.redoTop
        while n >= oldest {
            let r = records[n - base]
            growth += r.inserted.utf8.count - r.removed.utf8.count
            if r.link < oldest || !records[r.link - base].joinsPrevious { break }
            n = r.link
        }
        return growth
    }

    /// Forgets `h`'s steps (its field reset or removed, a secure field's new rules): their
    /// records stay in the log until it drops them, but their text is let go at once, so
    /// a forgotten secure text is not held a moment longer than it was before the log.
    mutating func forget(_ h: inout EditHistory) {
        if h.undoTop >= oldest { releaseText(from: h.undoTop) }
        if h.redoTop >= oldest { releaseText(from: h.redoTop) }
        h = EditHistory()
    }

    /// Lets go of the text of record `n` and of every record its chain links to.
    private mutating func releaseText(from n: Int) {
        var n = n
        while n >= oldest && n <= last {
            let i = n - base
            total -= records[i].removed.utf8.count + records[i].inserted.utf8.count
            records[i].removed = ""
            records[i].inserted = ""
            n = records[i].link
        }
    }

    /// Drops the oldest records until the log costs at most `goal`.
    mutating func drop(toAtMost goal: Int) {
        while total > goal && dropped < records.count {
            total -= records[dropped].cost
            records[dropped].removed = ""
            records[dropped].inserted = ""
            dropped += 1
        }
        if dropped > records.count - dropped {
            records.removeFirst(dropped)
            base += dropped
            dropped = 0
        }
    }

    /// What the records held cost, counted one by one: for tests and invariants.
    var recount: Int { records[dropped...].reduce(0) { $0 + $1.cost } }

    /// Records the log holds (dropped ones aside): for the compaction's trigger and tests.
    var held: Int { records.count - dropped }

    /// Whether enough records were made since the last compaction for another to pay.
    var compactionDue: Bool { held > compactAt }

    /// Removes every record no field can reach any more (steps past `limit`, released
    /// chains), keeping the others in order, in place (the array keeps its capacity),
    /// renumbered so that the last keeps at most the last number and the next record made
    /// still gets the one after it. `forEachHistory` must hand every field's history of the
    /// engine in turn, the same order both times it is called; `fields` is how many there are.
    mutating func compact(fields: Int, _ forEachHistory: ((inout EditHistory) -> Void) -> Void) {
        // Each held record's new index once marked live (0 until numbered), -1 if it goes;
        // kept between compactions so that its pages are not faulted in anew each time.
        renumbered.removeAll(keepingCapacity: true)
        renumbered.append(contentsOf: repeatElement(-1, count: records.count))
        let (oldBase, oldOldest, oldLast) = (base, oldest, last)
        var kept: Int32 = 0
        var held = 0
        records.withUnsafeMutableBufferPointer { records in
            renumbered.withUnsafeMutableBufferPointer { renumbered in
                forEachHistory { h in
                    var steps = h.count, n = h.undoTop
                    while steps > 0 && n >= oldOldest && renumbered[n - oldBase] < 0 {
                        renumbered[n - oldBase] = 0
                        if !records[n - oldBase].joinsPrevious { steps -= 1 }
                        n = records[n - oldBase].link
                    }
                    n = h.redoTop
                    while n >= oldOldest && renumbered[n - oldBase] < 0 {
                        renumbered[n - oldBase] = 0
                        n = records[n - oldBase].link
                    }
                }
                for i in (oldOldest - oldBase)..<records.count where renumbered[i] == 0 {
                    renumbered[i] = kept
                    kept += 1
                }
                let newBase = oldLast + 1 - Int(kept)
                for i in (oldOldest - oldBase)..<records.count where renumbered[i] >= 0 {
                    let j = Int(renumbered[i])
                    if i != j { records.swapAt(i, j) }
                    let link = records[j].link
                    records[j].link = link >= oldOldest && renumbered[link - oldBase] >= 0
                        ? newBase + Int(renumbered[link - oldBase]) : -1
                    held += records[j].cost
                }
            }
        }
        records.removeLast(records.count - Int(kept))
        base = oldLast + 1 - Int(kept)
        dropped = 0
        total = held
        let newBase = base
        renumbered.withUnsafeBufferPointer { renumbered in
            func map(_ n: Int) -> Int { n >= oldOldest && renumbered[n - oldBase] >= 0 ? newBase + Int(renumbered[n - oldBase]) : -1 }
            forEachHistory { h in
                h.undoTop = map(h.undoTop)
                h.redoTop = map(h.redoTop)
            }
        }
        compactAt = max(compactionFloor, 2 * Int(kept) + fields)
    }
}
