/// The growable byte buffer behind `JSONWriter`: copy-on-write like `[UInt8]`, but an
/// append is a uniqueness check, a capacity check and a copy, where `Array`'s appends cost
/// several times that; an encoder appends a dozen pieces per message.
///
/// The count lives in the struct and the storage object holds only constants, so no
/// access pays for a dynamic exclusivity check.
@usableFromInline
struct ByteBuffer: @unchecked Sendable {
    @usableFromInline
    final class Storage {
        @usableFromInline let base: UnsafeMutablePointer<UInt8>
        @usableFromInline let capacity: Int

        @usableFromInline
        init(capacity: Int) {
            self.capacity = max(capacity, 16)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }
    }

    @usableFromInline var storage: Storage
    @usableFromInline var count = 0

    @inlinable
    init(capacity: Int) { storage = Storage(capacity: capacity) }

    @inlinable
    var capacity: Int { storage.capacity }

    @inlinable
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage.base, count: count) }

    /// Room for `extra` more bytes in a buffer this value alone holds.
    @inlinable
    mutating func reserve(_ extra: Int) {
        if _fastPath(storage.capacity &- count >= extra && isKnownUniquelyReferenced(&storage)) { return }
        grow(extra)
    }

    @usableFromInline
    mutating func grow(_ extra: Int) {
        let needed = count + extra
        // Growing doubles; a copy (the storage is shared) gets room for what it holds.
        let capacity = isKnownUniquelyReferenced(&storage) ? max(needed, storage.capacity * 2) : max(needed, count * 2)
        let fresh = Storage(capacity: capacity)
        fresh.base.initialize(from: storage.base, count: count)
        storage = fresh
    }

    /// Lets `body` write at most `maxCount` bytes at the end; it returns how many it wrote.
    @inlinable
    mutating func append(upTo maxCount: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maxCount)
        count &+= body(storage.base + count)
    }

    @inlinable
    mutating func append(_ byte: UInt8) {
        reserve(1)
        storage.base[count] = byte
        count &+= 1
    }

    @inlinable
    mutating func append(_ source: UnsafePointer<UInt8>, count n: Int) {
        if n == 0 { return }
        reserve(n)
        (storage.base + count).initialize(from: source, count: n)
        count &+= n
    }

    /// Appends a copy of its own bytes `range`.
    @inlinable
    mutating func appendCopy(of range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "ByteBuffer.appendCopy of bytes it does not hold")
        reserve(range.count)
        (storage.base + count).initialize(from: storage.base + range.lowerBound, count: range.count)
        count &+= range.count
    }

    @inlinable
    mutating func set(_ i: Int, _ byte: UInt8) {
        reserve(0)
        storage.base[i] = byte
    }

    /// Keeps the first `n` bytes (and the capacity).
    @inlinable
    mutating func truncate(to n: Int) {
        precondition(n >= 0, "ByteBuffer.truncate to a negative count")
        count = min(n, count)
    }

    /// Drops the first `n` bytes, moving the rest to the front.
    mutating func removeFirst(_ n: Int) {
        precondition(n >= 0 && n <= count, "ByteBuffer.removeFirst past its bytes")
        reserve(0)
        let rest = count - n
        if rest > 0 { UnsafeMutableRawPointer(storage.base).copyMemory(from: storage.base + n, byteCount: rest) }
        count = rest
    }
}
