import FormdBytes

/// A form's field ids to their indices, found in O(1) for every command that names a field.
///
/// Why not only a `[String: Int]`: hashing a string with SipHash costs more than the rest
/// of a lookup (figures in PERFORMANCE.md). Field ids are nearly always short ASCII, held
/// inline in two words (`ShortASCII.words(of:)`), so those are also kept in an
/// open-addressed table keyed by their words. The dictionary still holds every id and
/// decides every other lookup, a miss in the table included: Swift compares strings by
/// canonical equivalence, under which a few non-ASCII ids equal ASCII ones (the Kelvin
/// sign "\u{212A}" is "K"), and those must find the same field as ever. The table's hash
/// is mixed with Swift's per-process hashing seed, so which ids collide differs from one
/// process to the next.
struct FieldIndex: Sendable {
    /// A short id's words and its field's index; `high == 0` marks an empty slot (a short
    /// string's high word always holds its count and flags).
    private struct Slot {
        var low: UInt64
        var high: UInt64
        var index: Int
    }

    private static let empty = Slot(low: 0, high: 0, index: 0)
    /// Swift's own per-process seed, taken once.
    private static let processSeed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x666F_726D_64 as UInt64)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }()

    /// Every id, as stored: what the index means.
    private var all: [String: Int] = [:]
    /// The ids of `all` stored as short ASCII, by their words. A power of two, at least
    /// twice as many slots as such ids, or empty.
    private var slots: [Slot] = []
    private var shortCount = 0
    private let seed = FieldIndex.processSeed

    var count: Int { all.count }

    subscript(id: String) -> Int? {
        if let key = ShortASCII.words(of: id), let index = shortIndex(key) { return index }
        return all[id]
    }

    /// Sets `id`'s index and returns the one it had.
    @discardableResult
    mutating func updateValue(_ index: Int, forKey id: String) -> Int? {
        let old = all.updateValue(index, forKey: id)
        // The key stored, which may be spelt otherwise than `id` (an equal string).
        let stored = old == nil ? id : all[all.index(forKey: id)!].key
        if let key = ShortASCII.words(of: stored) { setShort(key, index) }
        return old
    }

    mutating func removeValue(forKey id: String) {
        guard let i = all.index(forKey: id) else { return }
        let stored = all.remove(at: i).key
        if let key = ShortASCII.words(of: stored) { removeShort(key) }
    }

    mutating func removeAll() {
        for i in slots.indices { slots[i] = FieldIndex.empty }
        shortCount = 0
        all.removeAll(keepingCapacity: true)
    }

    /// Makes room for `count` ids without growing again.
    mutating func reserveCapacity(_ count: Int) {
        all.reserveCapacity(count)
        if count * 2 > slots.count { grow(toHold: count) }
    }

    private func shortIndex(_ key: (UInt64, UInt64)) -> Int? {
        guard !slots.isEmpty else { return nil }
        return slots.withUnsafeBufferPointer { table in
            let mask = table.count &- 1
            var i = slot(for: key, mask: mask)
            while table[i].high != 0 {
                if table[i].low == key.0 && table[i].high == key.1 { return table[i].index }
                i = (i &+ 1) & mask
            }
            return nil
        }
    }

    private mutating func setShort(_ key: (UInt64, UInt64), _ index: Int) {
        if (shortCount + 1) * 2 > slots.count { grow(toHold: shortCount + 1) }
        let mask = slots.count - 1
        var i = slot(for: key, mask: mask)
        while slots[i].high != 0 {
            if slots[i].low == key.0 && slots[i].high == key.1 {
                slots[i].index = index
                return
            }
            i = (i + 1) & mask
        }
        slots[i] = Slot(low: key.0, high: key.1, index: index)
        shortCount += 1
    }

    private mutating func removeShort(_ key: (UInt64, UInt64)) {
        guard !slots.isEmpty else { return }
        let mask = slots.count - 1
        var hole = slot(for: key, mask: mask)
        while !(slots[hole].low == key.0 && slots[hole].high == key.1) {
            if slots[hole].high == 0 { return }
            hole = (hole + 1) & mask
        }
        // Backward-shift deletion: every later entry of the run that may sit at the hole
        // (its home slot is not strictly between the hole and it) moves into it, so every
        // run stays unbroken without tombstones.
        var next = (hole + 1) & mask
        while slots[next].high != 0 {
            let home = slot(for: (slots[next].low, slots[next].high), mask: mask)
            if (next - home) & mask >= (next - hole) & mask {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = FieldIndex.empty
        shortCount -= 1
    }

    /// The home slot of `key`: both words go through a multiply-xorshift finalizer after
    /// the seed, so every bit of either reaches every bit of the slot by way of the seed.
    private func slot(for key: (UInt64, UInt64), mask: Int) -> Int {
        var h = key.0 ^ seed
        h = (h ^ (h &>> 33)) &* 0xFF51_AFD7_ED55_8CCD
        h ^= key.1
        h = (h ^ (h &>> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return Int(truncatingIfNeeded: h ^ (h &>> 33)) & mask
    }

    private mutating func grow(toHold count: Int) {
        var capacity = max(slots.count, 16)
        while count * 2 > capacity { capacity *= 2 }
        let old = slots
        slots = Array(repeating: FieldIndex.empty, count: capacity)
        let mask = capacity - 1
        for entry in old where entry.high != 0 {
            var i = slot(for: (entry.low, entry.high), mask: mask)
            while slots[i].high != 0 { i = (i + 1) & mask }
            slots[i] = entry
        }
    }
}

extension FieldIndex: Equatable {
    /// The same ids to the same indices (the table only mirrors the dictionary).
    static func == (a: FieldIndex, b: FieldIndex) -> Bool { a.all == b.all }
}
