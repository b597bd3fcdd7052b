/// The history log's records (`UndoLog`) in a ring buffer: a record is read and written in
/// place with no bounds or uniqueness check per access, the oldest are cut off by moving
/// the ring's start (no record moves), and the buffer grows by moving records as bytes (a
/// record's strings move with it, uncounted). Shared by copies of a log until one of them
/// changes (`UndoLog.makeUnique`).
final class UndoLogStorage: @unchecked Sendable {
    private var buffer: UnsafeMutablePointer<UndoLog.Record>
    /// A power of two: an index wraps with `mask`.
    private var capacity: Int
    private var mask: Int
    /// Where record 0 is in `buffer`.
    private var head = 0
    private(set) var count = 0

    /// Room for `capacity` records (a log that makes none allocates nothing more).
    init(capacity: Int = 0) {
        var size = capacity > 0 ? 64 : 0
        while size < capacity { size *= 2 }
        self.capacity = size
        mask = size - 1
        buffer = .allocate(capacity: max(size, 1))
    }

    deinit {
        deinitialize(0..<count)
        buffer.deallocate()
    }

    /// Record `i`, counted from the oldest held.
    @inline(__always)
    subscript(i: Int) -> UnsafeMutablePointer<UndoLog.Record> { buffer + ((head + i) & mask) }

    /// A storage of its own with the same records.
    func copy() -> UndoLogStorage {
        let copy = UndoLogStorage(capacity: count)
        forEachRun(0..<count) { start, offset, n in (copy.buffer + offset).initialize(from: start, count: n) }
        copy.count = count
        return copy
    }

    @inline(__always)
    func append(_ record: consuming UndoLog.Record) {
        if count == capacity { grow() }
        self[count].initialize(to: record)
        count += 1
    }

    /// Removes the first `n` records, which must hold no text (dead ones): nothing of
    /// theirs is left to let go.
    func removeFirst(_ n: Int) {
        head = (head + n) & mask
        count -= n
    }

    /// Removes the records from index `n` on, which must hold no text (dead ones).
    func truncate(to n: Int) {
        count = n
    }

    private func deinitialize(_ range: Range<Int>) {
        forEachRun(range) { start, _, n in start.deinitialize(count: n) }
    }

    /// Calls `body` with each stretch of `range` that lies in one piece in the buffer: its
    /// start, its offset from `range`'s start, and its length.
    private func forEachRun(_ range: Range<Int>, _ body: (UnsafeMutablePointer<UndoLog.Record>, Int, Int) -> Void) {
        var offset = 0
        while offset < range.count {
            let at = (head + range.lowerBound + offset) & mask
            let n = min(range.count - offset, capacity - at)
            body(buffer + at, offset, n)
            offset += n
        }
    }

    private func grow() {
        let grown = UnsafeMutablePointer<UndoLog.Record>.allocate(capacity: max(2 * capacity, 64))
        forEachRun(0..<count) { start, offset, n in (grown + offset).moveInitialize(from: start, count: n) }
        buffer.deallocate()
        buffer = grown
        capacity = max(2 * capacity, 64)
        mask = capacity - 1
        head = 0
    }
}
