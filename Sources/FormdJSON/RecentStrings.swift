#if canImport(Glibc)
import Glibc
#endif
import FormdBytes

/// The longer strings (16 to 64 bytes) a thread made last, kept by their bytes: a client
/// names the same long field ids request after request, and a string found here is shared
/// (a retain) where it would be allocated, filled and freed again. Each thread has its own
/// (256 slots, 20 KiB), so none is locked; it goes when its thread ends. The slots go in
/// sets of four, a string's bytes picking the set: up to four strings that pick the same
/// one are all kept, where one slot each would have them evict each other on every use.
final class RecentStrings {
    /// The longest string kept.
    static let maxBytes = 64
    private static let slotCount = 256
    /// Each slot's bytes (`maxBytes` apiece), their count (0: empty), their hash (`mix`,
    /// looked at first) and their string.
    private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: slotCount * maxBytes)
    private let counts = UnsafeMutablePointer<Int>.allocate(capacity: slotCount)
    private let hashes = UnsafeMutablePointer<UInt64>.allocate(capacity: slotCount)
    private let strings = UnsafeMutablePointer<String>.allocate(capacity: slotCount)

    private init() {
        counts.initialize(repeating: 0, count: Self.slotCount)
        hashes.initialize(repeating: 0, count: Self.slotCount)
        strings.initialize(repeating: "", count: Self.slotCount)
    }

    deinit {
        strings.deinitialize(count: Self.slotCount)
        strings.deallocate()
        hashes.deallocate()
        counts.deallocate()
        bytes.deallocate()
    }

    /// The string of `count` (16...`maxBytes`) bytes of valid UTF-8 at `p`: the one made
    /// before from the same bytes if this thread still holds it, else made now (and held).
    @inline(never)
    static func string(validUTF8 p: UnsafePointer<UInt8>, count: Int) -> String {
        // The thread's own is alive while the thread is: used without a retain.
        Unmanaged<RecentStrings>.fromOpaque(current)._withUnsafeGuaranteedRef { $0.string(p, count: count) }
    }

    private func string(_ p: UnsafePointer<UInt8>, count: Int) -> String {
        let hash = Self.mix(p, count: count)
        let first = Self.set(of: hash) &* Self.ways
        for slot in first..<(first &+ Self.ways) where hashes[slot] == hash && holds(slot, p, count) { return strings[slot] }
        // The set's first slot takes the new string; the others move up one, the last
        // one's string going.
        let made = String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
        var slot = first &+ Self.ways &- 1
        while slot > first {
            (bytes + slot * Self.maxBytes).update(from: bytes + (slot - 1) * Self.maxBytes, count: counts[slot - 1])
            counts[slot] = counts[slot - 1]
            hashes[slot] = hashes[slot - 1]
            swap(&strings[slot], &strings[slot - 1])
            slot -= 1
        }
        (bytes + first * Self.maxBytes).update(from: p, count: count)
        counts[first] = count
        hashes[first] = hash
        strings[first] = made
        return made
    }

    /// Slots a set holds.
    static let ways = 4

    /// The hash of the `count` bytes at `p`. Long ids differ mostly near their end (a
    /// counter), and always in their length or their bytes: both ends and the length make it.
    @inline(__always)
    static func mix(_ p: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        (SWAR.load(p) &* 0x9E37_79B9_7F4A_7C15 ^ SWAR.load(p + count - 8) ^ UInt64(count)) &* 0xBF58_476D_1CE4_E5B9
    }

    /// The set of slots (0..<64) the bytes hashed to `hash` go in.
    @inline(__always)
    static func set(of hash: UInt64) -> Int { Int(truncatingIfNeeded: hash &>> 58) }

    /// Whether `slot` holds the `count` (16...`maxBytes`) bytes at `p`.
    @inline(__always)
    private func holds(_ slot: Int, _ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        counts[slot] == count && SWAR.equal(bytes + slot * Self.maxBytes, p, count: count)
    }

    /// This thread's, made on its first use (held by the thread until it ends).
    private static var current: UnsafeMutableRawPointer {
        if let held = pthread_getspecific(key) { return held }
        let made = Unmanaged.passRetained(RecentStrings()).toOpaque()
        pthread_setspecific(key, made)
        return made
    }

    /// Where each thread's is kept; released when the thread ends.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { held in
            if let held { Unmanaged<RecentStrings>.fromOpaque(held).release() }
        }
        return key
    }()
}
