#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The history log's records (`UndoLog`) in a ring buffer, and their texts' bytes
/// (`UndoTextArena`): a record is read and written in place with no bounds or uniqueness
/// check per access, the oldest are cut off by moving the ring's start (no record moves),
/// and the buffer grows where it lies when it can (`realloc`: records are plain values).
/// Shared by copies of a log until one of them changes (`UndoLog.makeUnique`).
final class UndoLogStorage: @unchecked Sendable {
    private var buffer: UnsafeMutablePointer<UndoLog.Record>
    /// A power of two: an index wraps with `mask`.
    private var capacity: Int
    private var mask: Int
    /// Where record 0 is in `buffer`.
    private var head = 0
    private(set) var count = 0
    /// The records' texts. Only the log's own methods reach it, one access at a time: no
    /// dynamic exclusivity check on each.
    @exclusivity(unchecked) var text = UndoTextArena()

    /// Room for `capacity` records (a log that makes none allocates nothing more).
    init(capacity: Int = 0) {
        var size = capacity > 0 ? 64 : 0
        while size < capacity { size *= 2 }
        self.capacity = size
        mask = size - 1
        buffer = malloc(max(size, 1) * MemoryLayout<UndoLog.Record>.stride)!.bindMemory(to: UndoLog.Record.self, capacity: max(size, 1))
    }

    deinit {
        for i in 0..<count where self[i].pointee.secret && !self[i].pointee.dead { eraseText(of: i) }
        free(buffer)
    }

    /// Record `i`, counted from the oldest held.
    @inline(__always)
    subscript(i: Int) -> UnsafeMutablePointer<UndoLog.Record> { buffer + ((head &+ i) & mask) }

    /// A storage of its own with the same records and texts.
    func copy() -> UndoLogStorage {
        let copy = UndoLogStorage(capacity: count)
        forEachRun(0..<count) { start, offset, n in (copy.buffer + offset).initialize(from: start, count: n) }
        copy.count = count
        copy.text = text.copy()
        return copy
    }

    @inline(__always)
    func append(_ record: UndoLog.Record) {
        if count == capacity { grow() }
        self[count].initialize(to: record)
        count &+= 1
    }

    /// Removes the first `n` records (dead ones).
    func removeFirst(_ n: Int) {
        head = (head + n) & mask
        count -= n
    }

    /// Removes the records from index `n` on (dead ones).
    func truncate(to n: Int) {
        count = n
    }

    /// The text bytes of record `i`.
    @inline(__always)
    func textBytes(of i: Int) -> UnsafeMutablePointer<UInt8> { text.bytes + self[i].pointee.textAt }

    /// Overwrites the bytes record `i` holds (a secure field's, when it dies).
    func eraseText(of i: Int) {
        let held = self[i].pointee.heldUTF8
        if held > 0 { textBytes(of: i).update(repeating: 0, count: held) }
    }

    /// Where a new slot of `n` bytes begins, after every slot held: the live slots move to
    /// a new buffer first when the ring has no room.
    @inline(__always)
    func reserveText(_ n: Int) -> Int {
        if let at = text.reserve(n) { return at }
        makeRoomForText(n)
        return text.reserve(n)!
    }

    /// Makes the slot of the last record `size` bytes (at least what it has), its bytes
    /// kept `shift` bytes on (a Backspace run's removed text grows at its start): in place
    /// when the bytes after it are free, else as a new slot.
    func resizeLastText(to size: Int, shifting shift: Int) {
        let last = self[count - 1]
        let held = last.pointee.heldUTF8
        if text.extendLast(by: max(0, size - last.pointee.slotUTF8)) {
            if shift > 0 && held > 0 { memmove(textBytes(of: count - 1) + shift, textBytes(of: count - 1), held) }
            return
        }
        let at = reserveText(size)
        if held > 0 {
            (text.bytes + at + shift).update(from: textBytes(of: count - 1), count: held)
            if last.pointee.secret { eraseText(of: count - 1) }
        }
        last.pointee.textAt = at
    }

    /// Moves the live records' texts together, in place, to make room for `n` more bytes
    /// and some more (half what lives, and four bytes a record, so that the next move is
    /// as far off as this one cost), growing the buffer first when it is too small; dead
    /// records' slots are reclaimed. The slots from the buffer's start slide down to it,
    /// those that wrapped around from its end slide up to it, so no byte is overwritten
    /// before it moved and no fresh page is touched unless the buffer grows.
    private func makeRoomForText(_ n: Int) {
        var live = 0, secret = false
        for i in 0..<count where !self[i].pointee.dead {
            live += self[i].pointee.slotUTF8
            secret = secret || self[i].pointee.secret
        }
        let needed = max(4096, live + n + max(live / 2, 4 * count))
        if needed > text.capacity { text.grow(to: needed, erasingOld: secret) }
        // Records before `wrapped` have their slots at the buffer's end, the others at its start.
        var wrapped = 0
        if text.wraps {
            wrapped = count
            for i in 0..<count where !self[i].pointee.dead && self[i].pointee.textAt < text.front {
                wrapped = i
                break
            }
        }
        let bytes = text.bytes
        var movedSecret = false
        var end = 0
        for i in wrapped..<count {
            let r = self[i]
            if !r.pointee.dead {
                let held = r.pointee.heldUTF8
                if held > 0 && r.pointee.textAt != end { memmove(bytes + end, bytes + r.pointee.textAt, held) }
                movedSecret = movedSecret || r.pointee.secret
                r.pointee.textAt = end
                end += r.pointee.slotUTF8
            } else {
                // Keeps the slots in order: the front is read from the first record held.
                r.pointee.textAt = end
            }
        }
        var front = text.capacity
        for i in (0..<wrapped).reversed() {
            let r = self[i]
            if !r.pointee.dead {
                front -= r.pointee.slotUTF8
                let held = r.pointee.heldUTF8
                if held > 0 && r.pointee.textAt != front { memmove(bytes + front, bytes + r.pointee.textAt, held) }
                movedSecret = movedSecret || r.pointee.secret
            }
            r.pointee.textAt = front
        }
        text.moved(front: wrapped > 0 ? front : nil, end: end)
        // A secure text's bytes left behind where it was: in the free bytes, or in the
        // room a slot has beyond what it holds.
        if movedSecret {
            (bytes + end).update(repeating: 0, count: front - end)
            for i in 0..<count where !self[i].pointee.dead {
                let r = self[i].pointee
                (bytes + r.textAt + r.heldUTF8).update(repeating: 0, count: r.slotUTF8 - r.heldUTF8)
            }
        }
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

    /// Doubles the buffer with `realloc` (in place, or by moving its pages, when it can),
    /// then moves the records that wrapped around to where they follow on.
    private func grow() {
        let old = capacity
        let grown = max(2 * old, 64)
        buffer = realloc(buffer, grown * MemoryLayout<UndoLog.Record>.stride)!.bindMemory(to: UndoLog.Record.self, capacity: grown)
        capacity = grown
        mask = grown - 1
        let wrapped = head + count - old
        if wrapped > 0 {
            if wrapped <= old - head {
                (buffer + old).moveInitialize(from: buffer, count: wrapped)
            } else {
                (buffer + grown - (old - head)).moveInitialize(from: buffer + head, count: old - head)
                head = grown - (old - head)
            }
        }
    }
}
