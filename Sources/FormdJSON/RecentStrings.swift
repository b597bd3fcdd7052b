#if canImport(Glibc)
import Glibc
#endif
import FormdBytes

/// The longer strings (16 to 64 bytes) a thread made last, kept by their bytes: a client
/// names the same long field ids request after request, and a string found here is shared
/// (a retain) where it would be allocated, filled and freed again. Each thread has its own
/// (256 slots, 20 KiB), so none is locked; it goes when its thread ends.
final class RecentStrings {
    /// The longest string kept.
    static let maxBytes = 64
    private static let slotCount = 256
    /// Each slot's bytes (`maxBytes` apiece), their count (0: empty) and their string.
    private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: slotCount * maxBytes)
    private let counts = UnsafeMutablePointer<Int>.allocate(capacity: slotCount)
    private let strings = UnsafeMutablePointer<String>.allocate(capacity: slotCount)

    private init() {
        counts.initialize(repeating: 0, count: Self.slotCount)
        strings.initialize(repeating: "", count: Self.slotCount)
    }

    deinit {
        strings.deinitialize(count: Self.slotCount)
        strings.deallocate()
        counts.deallocate()
        bytes.deallocate()
    }

    /// The string of `count` (16...`maxBytes`) bytes of valid UTF-8 at `p`: the one made
    /// before from the same bytes if this thread still holds it, else made now (and held).
    @inline(never)
    static func string(validUTF8 p: UnsafePointer<UInt8>, count: Int) -> String {
        current.string(p, count: count)
    }

    private func string(_ p: UnsafePointer<UInt8>, count: Int) -> String {
        // Long ids differ mostly near their end (a counter), and always in their length or
        // their bytes: both ends and the length pick the slot.
        let mixed = (SWAR.load(p) &* 0x9E37_79B9_7F4A_7C15 ^ SWAR.load(p + count - 8) ^ UInt64(count)) &* 0xBF58_476D_1CE4_E5B9
        let slot = Int(truncatingIfNeeded: mixed &>> 56)
        let held = bytes + slot * Self.maxBytes
        if counts[slot] == count, memcmp(held, p, count) == 0 { return strings[slot] }
        let made = String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
        held.update(from: p, count: count)
        counts[slot] = count
        strings[slot] = made
        return made
    }

    /// This thread's, made on its first use.
    private static var current: RecentStrings {
        if let held = pthread_getspecific(key) { return Unmanaged<RecentStrings>.fromOpaque(held).takeUnretainedValue() }
        let made = RecentStrings()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
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
