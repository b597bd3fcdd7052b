#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of the undo log's texts (`UndoLog`), in one ring: a record's text is a slot
/// of bytes, always in one piece, put right after the slot made before it (or at the
/// buffer's start when the end has no room), so the slots lie in the order of their
/// records and the oldest held one is where the ring's held bytes begin. Cutting the log's
/// front frees the bytes before the first record left; the holes dead records leave
/// behind it are reclaimed when the buffer is full, by moving the live slots together
/// (`UndoLogStorage.makeRoomForText`). Why: a text kept as bytes costs no allocation, no
/// reference count and no release when it dies; the field's own string is let go at once.
struct UndoTextArena: ~Copyable {
    /// Never nil: an arena that holds no byte yet has a buffer of none.
    private(set) var bytes = malloc(1)!.assumingMemoryBound(to: UInt8.self)
    private(set) var capacity = 0
    /// Where the oldest slot still held begins (`end` when none is).
    private(set) var front = 0
    /// Where the next slot goes.
    private(set) var end = 0
    /// While the held slots wrap around: where those at the buffer's end stop (the others
    /// begin at 0 and stop at `end`); -1 while they lie in one stretch, `front..<end`.
    private var wrapEnd = -1

    init() {}

    deinit { free(bytes) }

    /// A copy holding the same slots at the same offsets.
    func copy() -> UndoTextArena {
        var copy = UndoTextArena()
        if capacity > 0 {
            copy.grow(to: capacity)
            copy.bytes.update(from: bytes, count: capacity)
        }
        copy.capacity = capacity
        copy.front = front
        copy.end = end
        copy.wrapEnd = wrapEnd
        return copy
    }

    /// Bytes held from the front to the end, holes included.
    var span: Int { wrapEnd < 0 ? end - front : wrapEnd - front + end }

    /// A slot of `n` bytes after the last one, or nil when the buffer has no room for it.
    @inline(__always)
    mutating func reserve(_ n: Int) -> Int? {
        if wrapEnd < 0 {
            if capacity - end >= n {
                end &+= n
                return end &- n
            }
            // Past the buffer's end: the slot goes at its start, before the front.
            guard front >= n else { return nil }
            wrapEnd = end
            end = n
            return 0
        }
        guard front - end >= n else { return nil }
        end &+= n
        return end &- n
    }

    /// Grows the last slot by `n` bytes where it lies; false when the bytes after it are
    /// not free.
    @inline(__always)
    mutating func extendLast(by n: Int) -> Bool {
        let room = wrapEnd < 0 ? capacity - end : front - end
        guard room >= n else { return false }
        end += n
        return true
    }

    /// Frees the bytes before `offset`, where the oldest slot still held begins; nil when
    /// no slot is held.
    mutating func release(upTo offset: Int?) {
        guard let offset else {
            front = 0
            end = 0
            wrapEnd = -1
            return
        }
        // A held slot before the front lies in the stretch from the buffer's start.
        if wrapEnd >= 0 && offset < front { wrapEnd = -1 }
        front = offset
    }

    /// Whether the held slots wrap around the buffer's end.
    var wraps: Bool { wrapEnd >= 0 }

    /// Makes the buffer `capacity` bytes, its bytes kept at their offsets (`realloc`: in
    /// place, or by moving its pages, when it can). `erasingOld`: it holds a secure field's
    /// text, which `realloc` could leave behind in freed memory, so the bytes are copied to
    /// a new block and the old one is cleared before it is freed.
    mutating func grow(to capacity: Int, erasingOld: Bool = false) {
        if erasingOld && self.capacity > 0 {
            let grown = malloc(capacity)!.assumingMemoryBound(to: UInt8.self)
            grown.update(from: bytes, count: min(self.capacity, capacity))
            explicit_bzero(bytes, self.capacity)
            free(bytes)
            bytes = grown
        } else {
            bytes = realloc(bytes, capacity)!.assumingMemoryBound(to: UInt8.self)
        }
        self.capacity = capacity
    }

    /// The held slots moved (`UndoLogStorage.makeRoomForText`): those from the buffer's
    /// start end at `end`, and those at its end, if any, begin at `front`.
    mutating func moved(front: Int?, end: Int) {
        self.end = end
        if let front {
            self.front = front
            wrapEnd = capacity
        } else {
            self.front = 0
            wrapEnd = -1
        }
    }
}
