import FormdJSON

/// A form's field ids to their indices, found in O(1) for every command that names a field.
///
/// Why not a `[String: Int]`: a dictionary hashes a string with SipHash, about 250
/// instructions a lookup even for "f12", a tenth of what a keystroke costs in all. Field
/// ids are nearly always short ASCII, which a Swift string holds inline in two words
/// (`ShortASCII.words(of:)`): those are kept in an open-addressed table of their words,
/// mixed by two multiplications, and found in a few dozen instructions. Any other id goes
/// to a dictionary. The mixing is seeded from Swift's per-process hashing seed, so ids
/// chosen to collide in one process do not in another.
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

    /// A power of two, at least twice the short ids, or empty.
    private var slots: [Slot] = []
    private var shortCount = 0
    private var others: [String: Int] = [:]
    private let seed = FieldIndex.processSeed

    var count: Int { shortCount + others.count }

    subscript(id: String) -> Int? {
        guard let key = ShortASCII.words(of: id) else { return others[id] }
        return index(forKey: key)
    }

    private func index(forKey key: (UInt64, UInt64)) -> Int? {
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

    /// Sets `id`'s index and returns the one it had.
    @discardableResult
    mutating func updateValue(_ index: Int, forKey id: String) -> Int? {
        guard let key = ShortASCII.words(of: id) else { return others.updateValue(index, forKey: id) }
        if (shortCount + 1) * 2 > slots.count { grow(toHold: shortCount + 1) }
        let mask = slots.count - 1
        var i = slot(for: key, mask: mask)
        while slots[i].high != 0 {
            if slots[i].low == key.0 && slots[i].high == key.1 {
                defer { slots[i].index = index }
                return slots[i].index
            }
            i = (i + 1) & mask
        }
        slots[i] = Slot(low: key.0, high: key.1, index: index)
        shortCount += 1
        return nil
    }

    mutating func removeValue(forKey id: String) {
        guard let key = ShortASCII.words(of: id) else {
            others[id] = nil
            return
        }
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

    mutating func removeAll() {
        for i in slots.indices { slots[i] = FieldIndex.empty }
        shortCount = 0
        others.removeAll(keepingCapacity: true)
    }

    /// Makes room for `count` short ids without growing again.
    mutating func reserveCapacity(_ count: Int) {
        if count * 2 > slots.count { grow(toHold: count) }
    }

    private func slot(for key: (UInt64, UInt64), mask: Int) -> Int {
        var h = (key.0 ^ seed) &* 0x9E37_79B9_7F4A_7C15
        h = (h ^ key.1 ^ (h &>> 32)) &* 0xD6E8_FEB8_6659_FD93
        return Int(truncatingIfNeeded: h ^ (h &>> 32)) & mask
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
    /// The same ids to the same indices, however the tables are laid out.
    static func == (a: FieldIndex, b: FieldIndex) -> Bool {
        a.shortCount == b.shortCount && a.others == b.others
            && a.slots.allSatisfy { $0.high == 0 || b.index(forKey: ($0.low, $0.high)) == $0.index }
    }
}
