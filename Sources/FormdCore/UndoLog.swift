import FormdBytes

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
/// The budget (`--max-undo-text`) counts the records that can still be undone or redone,
/// from when each is made until it goes out of reach or the log drops it. A step goes out
/// of reach the moment it does (past `--max-undo`: the field keeps where its oldest step
/// begins; a redo stack a new step replaced or the budget cut; the history of a field
/// removed or reset): its records die at once, their text let go and no longer counted.
/// Dead records leave holes that hold only their slot: the dead front of the log is cut
/// off at once (`trimFront`, a ring's start moved), and the holes behind a record that
/// lives on are removed in bulk once they outnumber the live records (`compact`).
struct UndoLog: Equatable, Sendable {
    /// What a record costs beyond its text: the record itself (80 bytes), in a buffer
    /// that may be up to twice the size of the records it holds.
    static let recordOverhead = 128

    struct Record: Equatable, Sendable {
        var kind: EditHistory.Kind
        /// Continues the run of the record below it on its field's stack: typing that
        /// resumed after records of other fields were made.
        var joinsPrevious: Bool
        /// Out of reach: its text let go, its cost no longer counted, its slot removed by
        /// the next trim or compaction.
        var dead = false
        /// Whether the record `up` names joins this one (its `joinsPrevious`), kept here so
        /// that retiring a stack's oldest step reads one record, not the one above too.
        var upJoins = false
        var startUTF8: Int
        var removed: String
        var inserted: String
        var anchorBeforeUTF8: Int
        var headBeforeUTF8: Int
        /// The next record of its field's stack (older on the undo stack, newer on the
        /// redo stack), or -1.
        var link: Int
        /// The record put on its field's undo stack right above it, or -1: read only from
        /// the stack's oldest step up, where it is always the one above.
        var up = -1

        /// Puts `record` right above this one on its stack; `joins`: its `joinsPrevious`.
        @inline(__always)
        mutating func setUp(_ record: Int, joins: Bool) {
            up = record
            upJoins = joins
        }

        /// Bytes the record holds against the budget.
        var cost: Int {
            @inline(__always) get { removed.utf8.count + inserted.utf8.count + UndoLog.recordOverhead }
        }
    }

    /// Undo steps each field keeps (`EngineLimits.maxUndoSteps`).
    let limit: Int
    /// The records from number `base` on; the first `dropped` of them are dead (dropped by
    /// the budget or out of reach): the front, cut off as soon as no record the budget
    /// dropped is among them.
    private var storage: UndoLogStorage
    private var base = 0
    private var dropped = 0
    /// Whether the budget dropped a live record since the last compaction: it may be where
    /// a field's oldest step begins, so the front stays until a compaction moves that
    /// field's start past it.
    private var frontHoldsDropped = false
    /// What the live records cost, exact after every change.
    private(set) var total = 0
    /// Records from `oldest` on that are not dead.
    private var live = 0
    /// The number of the last record made while the log holds it, else -1: a run grows
    /// its record in place only if no other record was made after it, whether or not
    /// that one was removed since.
    private var lastMade = -1

    /// The fewest dead records held before a compaction is considered (`compact`); `.max`
    /// never removes a record, neither by compaction nor from the front.
    let compactionFloor: Int
    /// The number of fields at the last compaction: a compaction visits each of them.
    private var fieldsAtCompaction = 0
    /// The compaction's map from a record's index to its new one (`compact`).
    private var renumbered: [Int32] = []

    init(limit: Int = 0, compactionFloor: Int = 4096) {
        self.limit = limit
        self.compactionFloor = compactionFloor
        storage = UndoLogStorage()
    }

    /// Record `i` (an index from `base`), written in place once `makeUnique` has run.
    @inline(__always)
    private func at(_ i: Int) -> UnsafeMutablePointer<Record> { storage[i] }
    private var count: Int { storage.count }

    /// Gives this log a storage of its own before it changes.
    @inline(__always)
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// The number of the oldest record that may live: a chain reaching below it ends.
    var oldest: Int { base + dropped }
    /// The number of the last record made, or `oldest - 1` when none is held.
    private var last: Int { base + count - 1 }

    static func == (a: UndoLog, b: UndoLog) -> Bool {
        a.limit == b.limit && a.oldest == b.oldest && a.total == b.total && a.lastMade == b.lastMade
            && a.count - a.dropped == b.count - b.dropped
            && zip(a.dropped..<a.count, b.dropped..<b.count).allSatisfy { a.at($0).pointee == b.at($1).pointee }
    }

    /// Records the edit that replaced `removed` at `startUTF8` by `inserted` in the field
    /// whose history is `h`. A new step clears what could be redone, and puts the field's
    /// oldest step out of reach once it keeps `limit`.
    mutating func record(_ kind: EditHistory.Kind, startUTF8: Int, removed: String, inserted: String,
                         anchorBeforeUTF8: Int, headBeforeUTF8: Int, into h: inout EditHistory) {
        makeUnique()
        if h.redoTop >= oldest { release(from: h.redoTop) }
        h.redoTop = -1
        if limit <= 0 {
            h.run = nil
            return
        }
        if let run = h.run, run == kind, h.count > 0, h.undoTop >= oldest {
            if kind == .typing && removed.isEmpty && startUTF8 == h.runEnd {
                h.runEnd += inserted.utf8.count
                if h.undoTop == lastMade {
                    total += inserted.utf8.count
                    at(count - 1).pointee.inserted += inserted
                } else {
                    push(kind, joining: true, startUTF8: startUTF8, removed: removed, inserted: inserted,
                         anchorBeforeUTF8: anchorBeforeUTF8, headBeforeUTF8: headBeforeUTF8, onto: &h)
                }
                return
            }
            if kind == .deleting && inserted.isEmpty && startUTF8 + removed.utf8.count == h.runEnd {
                h.runEnd = startUTF8
                if h.undoTop == lastMade {
                    // A Backspace removed what lies before the run's removed text.
                    let i = count - 1
                    total += removed.utf8.count
                    at(i).pointee.removed.insert(contentsOf: removed, at: at(i).pointee.removed.startIndex)
                    at(i).pointee.startUTF8 = startUTF8
                } else {
                    push(kind, joining: true, startUTF8: startUTF8, removed: removed, inserted: inserted,
                         anchorBeforeUTF8: anchorBeforeUTF8, headBeforeUTF8: headBeforeUTF8, onto: &h)
                }
                return
            }
        }
        push(kind, joining: false, startUTF8: startUTF8, removed: removed, inserted: inserted,
             anchorBeforeUTF8: anchorBeforeUTF8, headBeforeUTF8: headBeforeUTF8, onto: &h)
        stepAdded(startingAt: h.undoTop, to: &h)
        h.run = kind == .other ? nil : kind
        h.runEnd = kind == .typing ? startUTF8 + inserted.utf8.count : startUTF8
    }

    /// Puts a record at the end of the log, on top of `h`'s undo stack.
    @inline(__always)
    private mutating func push(_ kind: EditHistory.Kind, joining: Bool, startUTF8: Int, removed: String, inserted: String,
                               anchorBeforeUTF8: Int, headBeforeUTF8: Int, onto h: inout EditHistory) {
        let number = base + count
        if h.undoTop >= base { at(h.undoTop - base).pointee.setUp(number, joins: joining) }
        total += removed.utf8.count + inserted.utf8.count + UndoLog.recordOverhead
        storage.append(Record(kind: kind, joinsPrevious: joining, startUTF8: startUTF8, removed: removed, inserted: inserted,
                              anchorBeforeUTF8: anchorBeforeUTF8, headBeforeUTF8: headBeforeUTF8, link: h.undoTop))
        live += 1
        h.undoTop = number
        lastMade = number
    }

    /// Counts the step that begins at record `first`, just put on top of `h`'s undo
    /// stack: past `limit` steps, the oldest goes out of reach.
    @inline(__always)
    private mutating func stepAdded(startingAt first: Int, to h: inout EditHistory) {
        if h.count == 0 { h.bottom = first }
        if h.count < Int32(clamping: limit) {
            h.count += 1
        } else {
            retireOldestStep(&h)
        }
    }

    /// Fetches the record of `h`'s oldest step ahead of an edit that may retire it
    /// (`retireOldestStep`): made long ago, it is rarely still in the cache.
    @inline(__always)
    func prefetchOldest(of h: EditHistory) {
        guard h.count >= Int32(clamping: limit), h.bottom >= base, h.bottom - base < count else { return }
        CacheLines.prefetch(UnsafeRawPointer(at(h.bottom - base)), count: MemoryLayout<Record>.size)
    }

    /// Lets the oldest step of `h`'s undo stack (past `limit` steps) die, and moves the
    /// stack's start to the step above it.
    private mutating func retireOldestStep(_ h: inout EditHistory) {
        var n = h.bottom
        while true {
            let i = n - base
            if !at(i).pointee.dead { kill(i) }
            let upJoins = at(i).pointee.upJoins
            n = at(i).pointee.up
            if !upJoins { break }
        }
        h.bottom = n
    }

    /// Takes the last step off `h`'s undo stack onto its redo stack.
    mutating func popUndo(_ h: inout EditHistory) -> EditHistory.Step? {
        h.run = nil
        guard h.count > 0, h.undoTop >= oldest else { return nil }
        makeUnique()
        var step = EditHistory.Step(startUTF8: .max, removed: "", inserted: "", anchorBeforeUTF8: 0, headBeforeUTF8: 0)
        while true {
            let i = h.undoTop - base
            let r = at(i).pointee
            at(i).pointee.link = h.redoTop
            h.redoTop = h.undoTop
            h.undoTop = r.link
            // Newest first: an older record removed what lies after (Backspaces go backwards)
            // and inserted what lies before.
            step.startUTF8 = min(step.startUTF8, r.startUTF8)
            step.removed += r.removed
            step.inserted = r.inserted + step.inserted
            step.anchorBeforeUTF8 = r.anchorBeforeUTF8
            step.headBeforeUTF8 = r.headBeforeUTF8
            if !r.joinsPrevious { break }
            if r.link < oldest {
                // The budget dropped the run's start, and with it every older step.
                h.count = 1
                break
            }
        }
        h.count -= 1
        if h.count == 0 { h.bottom = -1 }
        return step
    }

    /// Takes the next step off `h`'s redo stack back onto its undo stack.
    mutating func popRedo(_ h: inout EditHistory) -> EditHistory.Step? {
        h.run = nil
        guard h.redoTop >= oldest else {
            h.redoTop = -1
            return nil
        }
        makeUnique()
        let firstNumber = h.redoTop
        let first = at(firstNumber - base).pointee
        var step = EditHistory.Step(startUTF8: .max, removed: "", inserted: "",
                                    anchorBeforeUTF8: first.anchorBeforeUTF8, headBeforeUTF8: first.headBeforeUTF8)
        while true {
            let i = h.redoTop - base
            let r = at(i).pointee
            at(i).pointee.link = h.undoTop
            if h.undoTop >= base { at(h.undoTop - base).pointee.setUp(h.redoTop, joins: r.joinsPrevious) }
            h.undoTop = h.redoTop
            h.redoTop = r.link
            step.startUTF8 = min(step.startUTF8, r.startUTF8)
            step.removed = r.removed + step.removed
            step.inserted += r.inserted
            if r.link < oldest || !at(r.link - base).pointee.joinsPrevious { break }
        }
        stepAdded(startingAt: firstNumber, to: &h)
        return step
    }

    /// Bytes the next undo of `h` adds to the text (negative when it shortens it).
    func undoGrowth(of h: EditHistory) -> Int {
        guard h.count > 0 else { return 0 }
        var growth = 0, n = h.undoTop
        while n >= oldest {
            let r = at(n - base).pointee
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
            let r = at(n - base).pointee
            growth += r.inserted.utf8.count - r.removed.utf8.count
            if r.link < oldest || !at(r.link - base).pointee.joinsPrevious { break }
            n = r.link
        }
        return growth
    }

    /// Forgets `h`'s steps (its field reset or removed, a secure field's new rules): their
    /// records die at once, so a forgotten secure text is not held a moment longer.
    mutating func forget(_ h: inout EditHistory) {
        makeUnique()
        release(from: h.undoTop)
        release(from: h.redoTop)
        h = EditHistory()
    }

    /// Lets record `n` and the rest of its chain die, up to a record that is already dead
    /// (below an undo stack's oldest step) or that the log no longer holds.
    private mutating func release(from n: Int) {
        var n = n
        while n >= oldest && n <= last && !at(n - base).pointee.dead {
            kill(n - base)
            n = at(n - base).pointee.link
        }
    }

    /// Record `i` (an index) goes out of reach: its text is let go and no longer counted.
    @inline(__always)
    private mutating func kill(_ i: Int) {
        let r = at(i)
        total -= r.pointee.cost
        live -= 1
        r.pointee.dead = true
        r.pointee.removed = ""
        r.pointee.inserted = ""
    }

    /// Drops the oldest records until the log costs at most `goal`. A redo stack's next
    /// step cannot be made without its oldest record, the first dropped: the rest of the
    /// stack goes with it.
    mutating func drop(toAtMost goal: Int) {
        makeUnique()
        while total > goal && dropped < count {
            if !at(dropped).pointee.dead {
                kill(dropped)
                frontHoldsDropped = true
                // Links lead to newer records only on a redo stack.
                let next = at(dropped).pointee.link
                if next > base + dropped { release(from: next) }
            }
            dropped += 1
        }
    }

    /// What the live records cost, counted one by one: for tests and invariants.
    var recount: Int { (dropped..<count).reduce(0) { $0 + (at($1).pointee.dead ? 0 : at($1).pointee.cost) } }

    /// Bytes of text in every record the log holds, dead or dropped ones too: for tests
    /// that text out of reach is let go at once.
    var textHeld: Int { (0..<count).reduce(0) { $0 + at($1).pointee.removed.utf8.count + at($1).pointee.inserted.utf8.count } }

    /// Records the log holds past its dead front, holes included: for tests.
    var held: Int { count - dropped }

    /// Moves the front past the records that died there, and cuts it off, touching no
    /// field: no stack a field can still undo or redo reaches it.
    @inline(__always)
    mutating func trimFront() {
        if dropped < count && at(dropped).pointee.dead { advanceFront() }
    }

    private mutating func advanceFront() {
        while dropped < count && at(dropped).pointee.dead { dropped += 1 }
        if !frontHoldsDropped && compactionFloor != .max {
            makeUnique()
            storage.removeFirst(dropped)
            base += dropped
            dropped = 0
        }
    }

    /// Whether the holes behind the front (and the front itself while it holds records
    /// the budget dropped) outnumber the live records and the fields a compaction visits,
    /// enough for a compaction to pay.
    var compactionDue: Bool {
        let holes = count - live
        return holes > compactionFloor && holes > live + fieldsAtCompaction
    }

    /// Removes every dead record, keeping the others in order, in place (the buffer keeps
    /// its capacity), renumbered so that the last keeps at most the last number and the
    /// next record made still gets the one after it. `forEachHistory` must hand every
    /// field's history of the engine in turn, the same order each time it is called;
    /// `fields` is how many there are.
    mutating func compact(fields: Int, _ forEachHistory: ((inout EditHistory) -> Void) -> Void) {
        makeUnique()
        // First the fields whose undo stacks begin in what the budget dropped: the start
        // moves to the first live record (the wholly dropped steps are no longer counted).
        forEachHistory { h in
            if h.count > 0 && h.bottom < oldest {
                if h.undoTop < oldest {
                    h.count = 0
                    h.bottom = -1
                } else {
                    var n = h.bottom
                    while n < oldest {
                        n = at(n - base).pointee.up
                        if !at(n - base).pointee.joinsPrevious { h.count -= 1 }
                    }
                    h.bottom = n
                }
            }
        }
        renumbered.removeAll(keepingCapacity: true)
        renumbered.append(contentsOf: repeatElement(-1, count: count))
        let (oldBase, oldOldest, oldLast) = (base, oldest, last)
        let (log, count) = (storage, self.count)
        var kept: Int32 = 0
        renumbered.withUnsafeMutableBufferPointer { renumbered in
            for i in (oldOldest - oldBase)..<count where !log[i].pointee.dead {
                renumbered[i] = kept
                kept += 1
            }
            let newBase = oldLast + 1 - Int(kept)
            func map(_ n: Int) -> Int { n >= oldOldest && renumbered[n - oldBase] >= 0 ? newBase + Int(renumbered[n - oldBase]) : -1 }
            for i in (oldOldest - oldBase)..<count where renumbered[i] >= 0 {
                let j = Int(renumbered[i])
                if i != j { swap(&log[i].pointee, &log[j].pointee) }
                log[j].pointee.link = map(log[j].pointee.link)
                log[j].pointee.up = map(log[j].pointee.up)
            }
        }
        storage.truncate(to: Int(kept))
        base = oldLast + 1 - Int(kept)
        dropped = 0
        frontHoldsDropped = false
        let newBase = base
        renumbered.withUnsafeBufferPointer { renumbered in
            func map(_ n: Int) -> Int { n >= oldOldest && renumbered[n - oldBase] >= 0 ? newBase + Int(renumbered[n - oldBase]) : -1 }
            forEachHistory { h in
                h.undoTop = map(h.undoTop)
                h.redoTop = map(h.redoTop)
                h.bottom = map(h.bottom)
            }
            lastMade = map(lastMade)
        }
        fieldsAtCompaction = fields
    }
}
