import FormdBytes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
/// A record is a plain value; its text is bytes in the log's storage (`UndoTextArena`),
/// and only the text that is not in the field: what the step removed while it can be
/// undone, what it inserted once it is undone (taken from the field by the undo, and
/// given back to the field's text by the redo, which takes the removed text from it
/// again). Its slot has room for the longer of the two.
///
/// The budget (`--max-undo-text`) counts the records that can still be undone or redone,
/// from when each is made until it goes out of reach or the log drops it: the bytes the
/// step removed and inserted, whichever of them the log holds. A step goes out of reach
/// the moment it does (past `--max-undo`: the field keeps where its oldest step begins; a
/// redo stack a new step replaced or the budget cut; the history of a field removed or
/// reset): its records die at once, no longer counted (a secure field's text overwritten).
/// Dead records leave holes that hold their slot: the dead front of the log is cut off at
/// once (`trimFront`, a ring's start moved, and the text's bytes before the first record
/// left freed), and the holes behind a record that lives on are removed in bulk once they
/// outnumber the live records (`compact`), their text's holes once the text's buffer is
/// full (`UndoLogStorage.relocateText`). A step of a text past 2 GiB is not kept: the
/// field's history is forgotten (a record's offsets are 32-bit).
struct UndoLog: Equatable, Sendable {
    /// What a record costs beyond its text: the record itself (40 bytes), in a buffer
    /// that may be up to twice the size of the records it holds, and its share of the
    /// room the text's buffer keeps (half what lives, 4 bytes a record).
    static let recordOverhead = 128

    /// One record: a plain value, its text in the log's storage. What retiring it and
    /// putting a record above it read and write comes first, in its first `hotBytes`
    /// (one cache line for seven records in eight: `prefetchRecords`).
    struct Record: Sendable {
        /// Its number minus that of the record put on its field's undo stack right above
        /// it: read only from the stack's oldest step up, where it is always the one above.
        var upBack: Int32
        var removedUTF8: Int32
        var insertedUTF8: Int32
        private var flags: UInt8
        /// Whether the record above joins this one (its `joinsPrevious`), kept here so
        /// that retiring a stack's oldest step reads one record, not the one above too; a
        /// byte of its own, so that setting it is a store, not a load of a record made long
        /// ago.
        private(set) var upJoins = false
        /// Where its text's slot begins in the storage's `UndoTextArena`.
        var textAt: Int
        /// Its number minus that of the next record of its field's stack (older on the undo
        /// stack, newer on the redo stack); a number below the log's oldest is none.
        var linkBack: Int32
        var startUTF8: Int32
        var anchorBeforeUTF8: Int32
        var headBeforeUTF8: Int32

        /// The bytes from its start that hold `upBack`, its lengths, its flags and `upJoins`.
        static let hotBytes = 16

        private static let joinsFlag: UInt8 = 4, deadFlag: UInt8 = 8
        private static let undoneFlag: UInt8 = 16, secretFlag: UInt8 = 32

        /// Record `number`, its stack going on at record `link`, none above it yet.
        init(number: Int, kind: EditHistory.Kind, joinsPrevious: Bool, secret: Bool, textAt: Int, link: Int,
             startUTF8: Int32, removedUTF8: Int32, insertedUTF8: Int32, anchorBeforeUTF8: Int32, headBeforeUTF8: Int32) {
            self.textAt = textAt
            linkBack = UndoLog.back(number, link)
            upBack = UndoLog.back(number, -1)
            self.startUTF8 = startUTF8
            self.removedUTF8 = removedUTF8
            self.insertedUTF8 = insertedUTF8
            self.anchorBeforeUTF8 = anchorBeforeUTF8
            self.headBeforeUTF8 = headBeforeUTF8
            flags = (kind == .typing ? 0 : kind == .deleting ? 1 : 2) | (joinsPrevious ? Record.joinsFlag : 0)
                | (secret ? Record.secretFlag : 0)
        }

        var kind: EditHistory.Kind {
            switch flags & 3 {
            case 0: return .typing
            case 1: return .deleting
            default: return .other
            }
        }

        @inline(__always)
        private func has(_ flag: UInt8) -> Bool { flags & flag != 0 }

        @inline(__always)
        private mutating func set(_ flag: UInt8, _ on: Bool) { flags = on ? flags | flag : flags & ~flag }

        /// Continues the run of the record below it on its field's stack: typing that
        /// resumed after records of other fields were made.
        var joinsPrevious: Bool { has(Record.joinsFlag) }
        /// Out of reach: no longer counted, its slot removed by the next trim or compaction.
        var dead: Bool {
            get { has(Record.deadFlag) }
            set { set(Record.deadFlag, newValue) }
        }
        /// On its field's redo stack: its slot holds what it inserted, else what it removed.
        var undone: Bool {
            get { has(Record.undoneFlag) }
            set { set(Record.undoneFlag, newValue) }
        }
        /// Made in a secure field: its text is overwritten when it dies.
        var secret: Bool { has(Record.secretFlag) }

        /// Puts the record numbered `up` right above this one (numbered `number`) on its
        /// stack; `joins`: its `joinsPrevious`.
        @inline(__always)
        mutating func setUp(_ up: Int, of number: Int, joins: Bool) {
            upBack = UndoLog.back(number, up)
            upJoins = joins
        }

        /// Bytes of text its slot holds: what is not in the field.
        var heldUTF8: Int { Int(undone ? insertedUTF8 : removedUTF8) }
        /// Bytes its slot has room for.
        var slotUTF8: Int { Int(max(removedUTF8, insertedUTF8)) }

        /// Bytes the record holds against the budget.
        var cost: Int {
            @inline(__always) get { Int(removedUTF8) + Int(insertedUTF8) + UndoLog.recordOverhead }
        }

        /// The same step, wherever its text lies.
        func sameStep(as other: Record) -> Bool {
            linkBack == other.linkBack && upBack == other.upBack && startUTF8 == other.startUTF8
                && removedUTF8 == other.removedUTF8 && insertedUTF8 == other.insertedUTF8
                && anchorBeforeUTF8 == other.anchorBeforeUTF8 && headBeforeUTF8 == other.headBeforeUTF8 && flags == other.flags
                && upJoins == other.upJoins
        }
    }

    /// `number - other`, the distance a record keeps to a record it names; past what 32
    /// bits hold, a distance that names no record the log holds.
    @inline(__always)
    static func back(_ number: Int, _ other: Int) -> Int32 { Int32(clamping: number - other) }

    /// Undo steps each field keeps (`EngineLimits.maxUndoSteps`).
    let limit: Int
    /// The records from number `base` on; the first `dropped` of them are dead (dropped by
    /// the budget or out of reach): the front, cut off at the next trim (kept by a log that
    /// never removes a record).
    private var storage: UndoLogStorage
    private var base = 0
    private var dropped = 0
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

    /// The number of the next record on the stack of record `i` (an index), or one the
    /// log does not hold.
    @inline(__always)
    private func link(_ i: Int) -> Int { base + i - Int(at(i).pointee.linkBack) }

    @inline(__always)
    private func setLink(_ i: Int, _ n: Int) { at(i).pointee.linkBack = UndoLog.back(base + i, n) }

    /// The number of the record above record `i` (an index) on its undo stack.
    @inline(__always)
    private func up(_ i: Int) -> Int { base + i - Int(at(i).pointee.upBack) }

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
            && zip(a.dropped..<a.count, b.dropped..<b.count).allSatisfy { i, j in
                a.at(i).pointee.sameStep(as: b.at(j).pointee)
                    && (a.at(i).pointee.dead || a.heldText(i) == b.heldText(j))
            }
    }

    /// The bytes record `i` (an index) holds.
    private func heldText(_ i: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: storage.textBytes(of: i), count: at(i).pointee.heldUTF8))
    }

    /// Records the edit that replaced the `removedUTF8` bytes at `startUTF8` of `text`
    /// (the field's text before it) by `insertedUTF8` bytes, in the field whose history
    /// is `h`; `secret`: the field is secure. A new step clears what could be redone, and
    /// puts the field's oldest step out of reach once it keeps `limit`.
    mutating func record(_ kind: EditHistory.Kind, startUTF8: Int, removedUTF8: Int, insertedUTF8: Int, of text: String,
                         secret: Bool, anchorBeforeUTF8: Int, headBeforeUTF8: Int, into h: inout EditHistory) {
        makeUnique()
        if h.redoTop >= oldest { release(from: h.redoTop) }
        h.redoTop = -1
        if limit <= 0 {
            h.run = nil
            return
        }
        let before = text.utf8.count
        guard max(before, before - removedUTF8 + insertedUTF8, anchorBeforeUTF8, headBeforeUTF8) <= Int(Int32.max) else {
            forget(&h)
            return
        }
        if let run = h.run, run == kind, h.count > 0, h.undoTop >= oldest {
            if kind == .typing && removedUTF8 == 0 && startUTF8 == h.runEnd {
                h.runEnd += insertedUTF8
                if h.undoTop == lastMade {
                    total += insertedUTF8
                    let r = at(count - 1)
                    let grown = Int(r.pointee.insertedUTF8) + insertedUTF8
                    if grown > r.pointee.slotUTF8 { storage.resizeLastText(to: grown, shifting: 0) }
                    r.pointee.insertedUTF8 = Int32(grown)
                } else {
                    push(kind, joining: true, startUTF8: startUTF8, removedUTF8: removedUTF8, insertedUTF8: insertedUTF8,
                         of: text, secret: secret, anchorBeforeUTF8: anchorBeforeUTF8, headBeforeUTF8: headBeforeUTF8, onto: &h)
                }
                return
            }
            if kind == .deleting && insertedUTF8 == 0 && startUTF8 + removedUTF8 == h.runEnd {
                h.runEnd = startUTF8
                if h.undoTop == lastMade {
                    // A Backspace removed what lies before the run's removed text.
                    let i = count - 1
                    total += removedUTF8
                    let r = at(i).pointee
                    storage.resizeLastText(to: max(Int(r.removedUTF8) + removedUTF8, Int(r.insertedUTF8)), shifting: removedUTF8)
                    UndoLog.copy(text, from: startUTF8, count: removedUTF8, to: storage.textBytes(of: i))
                    at(i).pointee.removedUTF8 += Int32(removedUTF8)
                    at(i).pointee.startUTF8 = Int32(startUTF8)
                } else {
                    push(kind, joining: true, startUTF8: startUTF8, removedUTF8: removedUTF8, insertedUTF8: insertedUTF8,
                         of: text, secret: secret, anchorBeforeUTF8: anchorBeforeUTF8, headBeforeUTF8: headBeforeUTF8, onto: &h)
                }
                return
            }
        }
        push(kind, joining: false, startUTF8: startUTF8, removedUTF8: removedUTF8, insertedUTF8: insertedUTF8,
             of: text, secret: secret, anchorBeforeUTF8: anchorBeforeUTF8, headBeforeUTF8: headBeforeUTF8, onto: &h)
        stepAdded(startingAt: h.undoTop, to: &h)
        h.run = kind == .other ? nil : kind
        h.runEnd = kind == .typing ? startUTF8 + insertedUTF8 : startUTF8
    }

    /// Copies the `count` bytes at `start` of `text`'s UTF-8 to `destination`.
    @inline(__always)
    private static func copy(_ text: String, from start: Int, count: Int, to destination: UnsafeMutablePointer<UInt8>) {
        guard count > 0 else { return }
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { b in
            destination.initialize(from: b.baseAddress! + start, count: count)
        }
        if done == nil {
            let utf8 = text.utf8
            var i = utf8.index(utf8.startIndex, offsetBy: start)
            for k in 0..<count {
                destination[k] = utf8[i]
                i = utf8.index(after: i)
            }
        }
    }

    /// Puts a record at the end of the log, on top of `h`'s undo stack, with the removed
    /// text's bytes. Its positions fit in 32 bits (`record` checked the texts' lengths).
    @inline(__always)
    private mutating func push(_ kind: EditHistory.Kind, joining: Bool, startUTF8: Int, removedUTF8: Int, insertedUTF8: Int,
                               of text: String, secret: Bool, anchorBeforeUTF8: Int, headBeforeUTF8: Int,
                               onto h: inout EditHistory) {
        let number = base &+ count
        if h.undoTop >= base { at(h.undoTop &- base).pointee.setUp(number, of: h.undoTop, joins: joining) }
        total &+= removedUTF8 &+ insertedUTF8 &+ UndoLog.recordOverhead
        let textAt = storage.reserveText(max(removedUTF8, insertedUTF8))
        if removedUTF8 > 0 { UndoLog.copy(text, from: startUTF8, count: removedUTF8, to: storage.text.bytes + textAt) }
        storage.append(Record(number: number, kind: kind, joinsPrevious: joining, secret: secret, textAt: textAt,
                              link: h.undoTop, startUTF8: Int32(truncatingIfNeeded: startUTF8),
                              removedUTF8: Int32(truncatingIfNeeded: removedUTF8), insertedUTF8: Int32(truncatingIfNeeded: insertedUTF8),
                              anchorBeforeUTF8: Int32(truncatingIfNeeded: anchorBeforeUTF8),
                              headBeforeUTF8: Int32(truncatingIfNeeded: headBeforeUTF8)))
        live &+= 1
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
            return
        }
        // Steps the budget dropped were counted: the field's stack starts in what the log
        // no longer holds, and is counted anew from its top.
        if h.bottom < oldest {
            countLiveSteps(&h)
            if h.count <= Int32(clamping: limit) { return }
            h.count -= 1
        }
        retireOldestStep(&h)
    }

    /// Counts the steps of `h`'s undo stack the log still holds, from its top down (a run
    /// the budget dropped the start of counts as a step), and moves its start to the
    /// oldest record left.
    private func countLiveSteps(_ h: inout EditHistory) {
        var steps: Int32 = 0, n = h.undoTop, lowest = -1
        while n >= oldest && !at(n - base).pointee.dead {
            let next = link(n - base)
            if !at(n - base).pointee.joinsPrevious || next < oldest { steps += 1 }
            lowest = n
            n = next
        }
        h.count = steps
        h.bottom = steps > 0 ? lowest : -1
    }

    /// Fetches the records an edit of the field whose history is `h` writes, ahead of it:
    /// its newest (a new record is put above it, `Record.setUp`) and, once it keeps
    /// `limit` steps, its oldest step's (which the edit retires, `retireOldestStep`). Made
    /// long ago, they are rarely still in the cache. Only their `Record.hotBytes` are
    /// fetched: the rest is read by undo and redo alone.
    @inline(__always)
    func prefetchRecords(of h: EditHistory) {
        if h.undoTop >= base && h.undoTop - base < count { prefetchRecord(h.undoTop - base) }
        guard h.count >= Int32(clamping: limit), h.bottom >= base, h.bottom - base < count else { return }
        prefetchRecord(h.bottom - base)
    }

    /// Asks for the `Record.hotBytes` of record `i` (an index).
    @inline(__always)
    private func prefetchRecord(_ i: Int) { CacheLines.prefetch(UnsafeRawPointer(at(i)), count: Record.hotBytes) }

    /// Lets the oldest step of `h`'s undo stack (past `limit` steps) die, and moves the
    /// stack's start to the step above it, whose record is fetched now: the field's next
    /// step retires it, and that is usually too soon after its lookup's prefetch
    /// (`prefetchRecords`) for a record made so long ago.
    private mutating func retireOldestStep(_ h: inout EditHistory) {
        var n = h.bottom
        while true {
            let i = n - base
            if !at(i).pointee.dead { kill(i) }
            let upJoins = at(i).pointee.upJoins
            n = up(i)
            if !upJoins { break }
        }
        h.bottom = n
        if n >= base && n - base < count { prefetchRecord(n - base) }
    }

    /// Takes the last step off `h`'s undo stack onto its redo stack; `text` is the field's
    /// text, from which each record takes what it inserted.
    mutating func popUndo(_ h: inout EditHistory, text: String) -> EditHistory.Step? {
        h.run = nil
        guard h.count > 0, h.undoTop >= oldest else { return nil }
        makeUnique()
        var step = EditHistory.Step(startUTF8: .max, replacedUTF8: 0, text: "", anchorBeforeUTF8: 0, headBeforeUTF8: 0)
        var removed: [UInt8] = []
        while true {
            let i = h.undoTop - base
            let next = link(i)
            setLink(i, h.redoTop)
            h.redoTop = h.undoTop
            h.undoTop = next
            // Newest first: an older record removed what lies after (Backspaces go backwards)
            // and inserted what lies before.
            let r = at(i).pointee
            step.startUTF8 = min(step.startUTF8, Int(r.startUTF8))
            step.replacedUTF8 += Int(r.insertedUTF8)
            removed.append(contentsOf: UnsafeBufferPointer(start: storage.textBytes(of: i), count: Int(r.removedUTF8)))
            swapText(i, undone: true, from: text)
            step.anchorBeforeUTF8 = Int(r.anchorBeforeUTF8)
            step.headBeforeUTF8 = Int(r.headBeforeUTF8)
            if !r.joinsPrevious { break }
            if next < oldest {
                // The budget dropped the run's start, and with it every older step.
                h.count = 1
                break
            }
        }
        h.count -= 1
        if h.count == 0 { h.bottom = -1 }
        step.text = String(decoding: removed, as: UTF8.self)
        return step
    }

    /// Takes the next step off `h`'s redo stack back onto its undo stack; `text` is the
    /// field's text, from which each record takes what it removed.
    mutating func popRedo(_ h: inout EditHistory, text: String) -> EditHistory.Step? {
        h.run = nil
        guard h.redoTop >= oldest else {
            h.redoTop = -1
            return nil
        }
        makeUnique()
        let firstNumber = h.redoTop
        let first = at(firstNumber - base).pointee
        var step = EditHistory.Step(startUTF8: .max, replacedUTF8: 0, text: "",
                                    anchorBeforeUTF8: Int(first.anchorBeforeUTF8), headBeforeUTF8: Int(first.headBeforeUTF8))
        var inserted: [UInt8] = []
        while true {
            let i = h.redoTop - base
            let next = link(i)
            let r = at(i).pointee
            setLink(i, h.undoTop)
            if h.undoTop >= base { at(h.undoTop - base).pointee.setUp(h.redoTop, of: h.undoTop, joins: r.joinsPrevious) }
            h.undoTop = h.redoTop
            h.redoTop = next
            step.startUTF8 = min(step.startUTF8, Int(r.startUTF8))
            step.replacedUTF8 += Int(r.removedUTF8)
            inserted.append(contentsOf: UnsafeBufferPointer(start: storage.textBytes(of: i), count: Int(r.insertedUTF8)))
            swapText(i, undone: false, from: text)
            if next < oldest || !at(next - base).pointee.joinsPrevious { break }
        }
        stepAdded(startingAt: firstNumber, to: &h)
        step.text = String(decoding: inserted, as: UTF8.self)
        return step
    }

    /// Puts in record `i`'s slot the text the field is about to lose (`undone`: what the
    /// record inserted, else what it removed), taken from the field's `text`; the slot's
    /// other text is in the field again.
    private mutating func swapText(_ i: Int, undone: Bool, from text: String) {
        let r = at(i)
        let held = r.pointee.heldUTF8
        r.pointee.undone = undone
        let taking = r.pointee.heldUTF8
        if r.pointee.secret && held > taking { (storage.textBytes(of: i) + taking).update(repeating: 0, count: held - taking) }
        UndoLog.copy(text, from: Int(r.pointee.startUTF8), count: taking, to: storage.textBytes(of: i))
    }

    /// Bytes the next undo of `h` adds to the text (negative when it shortens it).
    func undoGrowth(of h: EditHistory) -> Int {
        guard h.count > 0 else { return 0 }
        var growth = 0, n = h.undoTop
        while n >= oldest {
            let r = at(n - base).pointee
            growth += Int(r.removedUTF8) - Int(r.insertedUTF8)
            if !r.joinsPrevious { break }
            n = link(n - base)
        }
        return growth
    }

    /// Bytes the next redo of `h` adds to the text.
    func redoGrowth(of h: EditHistory) -> Int {
        var growth = 0, n = h.redoTop
        while n >= oldest {
            let r = at(n - base).pointee
            growth += Int(r.insertedUTF8) - Int(r.removedUTF8)
            let next = link(n - base)
            if next < oldest || !at(next - base).pointee.joinsPrevious { break }
            n = next
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
            n = link(n - base)
        }
    }

    /// Record `i` (an index) goes out of reach: no longer counted, a secure text erased.
    @inline(__always)
    private mutating func kill(_ i: Int) {
        let r = at(i)
        total &-= r.pointee.cost
        live &-= 1
        r.pointee.dead = true
        if r.pointee.secret { storage.eraseText(of: i) }
    }

    /// Drops the oldest records until the log costs at most `goal`. A redo stack's next
    /// step cannot be made without its oldest record, the first dropped: the rest of the
    /// stack goes with it.
    mutating func drop(toAtMost goal: Int) {
        makeUnique()
        while total > goal && dropped < count {
            if !at(dropped).pointee.dead {
                kill(dropped)
                // Links lead to newer records only on a redo stack.
                let next = link(dropped)
                if next > base + dropped { release(from: next) }
            }
            dropped += 1
        }
        releaseText()
    }

    /// Frees the text's bytes before the first record that may live.
    private func releaseText() {
        storage.text.release(upTo: dropped < count ? at(dropped).pointee.textAt : nil)
    }

    /// What the live records cost, counted one by one: for tests and invariants.
    var recount: Int { (dropped..<count).reduce(0) { $0 + (at($1).pointee.dead ? 0 : at($1).pointee.cost) } }

    /// Bytes of text the live records hold: for tests.
    var textHeld: Int { (dropped..<count).reduce(0) { $0 + (at($1).pointee.dead ? 0 : at($1).pointee.heldUTF8) } }

    /// The size of the text's buffer, and the bytes held in it from its front to its end,
    /// holes included: for tests that it stays bounded.
    var textBuffer: (capacity: Int, span: Int) { (storage.text.capacity, storage.text.span) }

    /// Every byte of the text's buffer, held or not: for tests that a secure text is
    /// overwritten once it dies.
    var textBufferBytes: [UInt8] { Array(UnsafeBufferPointer(start: storage.text.bytes, count: storage.text.capacity)) }

    /// Records the log holds past its dead front, holes included: for tests.
    var held: Int { count - dropped }

    /// Moves the front past the records that died there, and cuts it off, touching no
    /// field: no stack a field can still undo or redo reaches it.
    @inline(__always)
    mutating func trimFront() {
        if dropped > 0 || (dropped < count && at(dropped).pointee.dead) { advanceFront() }
    }

    private mutating func advanceFront() {
        while dropped < count && at(dropped).pointee.dead { dropped += 1 }
        if compactionFloor != .max {
            makeUnique()
            storage.removeFirst(dropped)
            base += dropped
            dropped = 0
        }
        releaseText()
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
            if h.count > 0 && h.bottom < oldest { countLiveSteps(&h) }
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
                let (number, newNumber) = (oldBase + i, newBase + j)
                var r = log[i].pointee
                r.linkBack = UndoLog.back(newNumber, map(number - Int(r.linkBack)))
                r.upBack = UndoLog.back(newNumber, map(number - Int(r.upBack)))
                log[j].pointee = r
            }
        }
        storage.truncate(to: Int(kept))
        base = oldLast + 1 - Int(kept)
        dropped = 0
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
        releaseText()
        fieldsAtCompaction = fields
    }
}
