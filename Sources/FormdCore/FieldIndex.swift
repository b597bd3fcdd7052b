import FormdBytes

/// A form's field ids to their positions, found in O(1) for every command that names a field.
///
/// Why not only a `[String: Int]`: hashing a string with SipHash costs more than the rest
/// of a lookup, and a table of whole ids spread over 10,000 fields misses the cache on
/// every command (figures in PERFORMANCE.md). Field ids are nearly always short ASCII,
/// held inline in two words (`ShortASCII.words(of:)`), so those are also kept in an
/// open-addressed table of 8-byte slots, each holding 32 bits of the id's hash and the
/// field's position; a slot whose hash matches is confirmed against the field's own id,
/// whose memory the command reads anyway. The dictionary still holds every id and decides
/// every other lookup, a miss in the table included: Swift compares strings by canonical
/// equivalence, under which a few non-ASCII ids equal ASCII ones (the Kelvin sign
/// "\u{212A}" is "K"), and those must find the same field as ever. The hash is mixed with
/// Swift's per-process hashing seed, so which ids collide differs from one process to the
/// next.
///
/// Positions are those of the form's `fields`: every change names the position it makes or
/// removes, and the ids are read through `idAt`, the id at each position before the change.
struct FieldIndex: Sendable {
    /// Swift's own per-process seed, taken once.
    private static let processSeed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x666F_726D_64 as UInt64)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }()

    /// Every id, as stored: what the index means.
    private var all: [String: Int] = [:]
    /// The ids of `all` stored as short ASCII: `hash << 32 | (position + 1)`, 0 when empty;
    /// a slot's home is its hash masked. A power of two, at most three quarters full, or empty.
    private var slots: [UInt64] = []
    private var shortCount = 0
    private let seed = FieldIndex.processSeed

    var count: Int { all.count }

    /// The position of `id`, or nil.
    func position(of id: String, idAt: (Int) -> String) -> Int? {
        if let key = ShortASCII.words(of: id), !slots.isEmpty {
            let hash = UInt64(hash(key))
            let found: Int? = slots.withUnsafeBufferPointer { table in
                let mask = table.count &- 1
                var i = Int(truncatingIfNeeded: hash) & mask
                while table[i] != 0 {
                    if table[i] &>> 32 == hash {
                        let p = Int(truncatingIfNeeded: table[i] & 0xFFFF_FFFF) &- 1
                        if let words = ShortASCII.words(of: idAt(p)), words == key { return p }
                    }
                    i = (i &+ 1) & mask
                }
                return nil
            }
            if let found { return found }
        }
        return all[id]
    }

    /// Adds `id` at the next position (`count`), unless an equal id is already there.
    /// Returns whether it was added.
    mutating func append(_ id: String) -> Bool {
        let position = all.count
        if let held = all.updateValue(position, forKey: id) {
            all[id] = held
            return false
        }
        if let key = ShortASCII.words(of: id) { addSlot(hash(key), position) }
        return true
    }

    /// Inserts `id` (not yet held) at `position`; the ids there and after move up by one.
    mutating func insert(_ id: String, at position: Int, idAt: (Int) -> String) {
        let end = all.count
        for p in position..<end { all[idAt(p)] = p + 1 }
        if position < end { shiftSlots(from: position, by: 1) }
        all[id] = position
        if let key = ShortASCII.words(of: id) { addSlot(hash(key), position) }
    }

    /// Removes the id at `position`; the ids after it move down by one.
    mutating func remove(at position: Int, idAt: (Int) -> String) {
        let end = all.count
        guard let i = all.index(forKey: idAt(position)) else { return }
        let stored = all.remove(at: i).key
        if let key = ShortASCII.words(of: stored) { removeSlot(hash(key), position) }
        for p in (position + 1)..<end { all[idAt(p)] = p - 1 }
        if position + 1 < end { shiftSlots(from: position + 1, by: -1) }
    }

    mutating func removeAll() {
        for i in slots.indices { slots[i] = 0 }
        shortCount = 0
        all.removeAll(keepingCapacity: true)
    }

    /// Makes room for `count` ids without growing again.
    mutating func reserveCapacity(_ count: Int) {
        all.reserveCapacity(count)
        if count * 4 > slots.count * 3 { grow(toHold: count) }
    }

    private mutating func addSlot(_ hash: UInt32, _ position: Int) {
        precondition(position < 0xFFFF_FFFF, "more fields than a slot's 32 bits of position hold")
        if (shortCount + 1) * 4 > slots.count * 3 { grow(toHold: shortCount + 1) }
        let mask = slots.count - 1
        var i = Int(hash) & mask
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = UInt64(hash) << 32 | UInt64(position + 1)
        shortCount += 1
    }

    /// Removes the slot of the id hashed to `hash` at `position` (positions are unique).
    private mutating func removeSlot(_ hash: UInt32, _ position: Int) {
        guard !slots.isEmpty else { return }
        let mask = slots.count - 1
        let entry = UInt64(hash) << 32 | UInt64(position + 1)
        var hole = Int(hash) & mask
        while slots[hole] != entry {
            if slots[hole] == 0 { return }
            hole = (hole + 1) & mask
        }
        // Backward-shift deletion: every later entry of the run that may sit at the hole
        // (its home slot is not strictly between the hole and it) moves into it, so every
        // run stays unbroken without tombstones.
        var next = (hole + 1) & mask
        while slots[next] != 0 {
            let home = Int(truncatingIfNeeded: slots[next] &>> 32) & mask
            if (next - home) & mask >= (next - hole) & mask {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = 0
        shortCount -= 1
    }

    /// Every slot holding a position at or after `start` moves by `delta`.
    private mutating func shiftSlots(from start: Int, by delta: Int) {
        let first = UInt64(start + 1)
        let step = UInt64(bitPattern: Int64(delta))
        for i in slots.indices where slots[i] != 0 && slots[i] & 0xFFFF_FFFF >= first {
            slots[i] = slots[i] &+ step
        }
    }

    /// 32 bits of the key's hash: both words go through a multiply-xorshift finalizer after
    /// the seed, so every bit of either reaches every bit of the hash by way of the seed.
    func hash(_ key: (UInt64, UInt64)) -> UInt32 {
        var h = key.0 ^ seed
        h = (h ^ (h &>> 33)) &* 0xFF51_AFD7_ED55_8CCD
        h ^= key.1
        h = (h ^ (h &>> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return UInt32(truncatingIfNeeded: (h ^ (h &>> 33)) &>> 32)
    }

    private mutating func grow(toHold count: Int) {
        var capacity = max(slots.count, 16)
        while count * 4 > capacity * 3 { capacity *= 2 }
        let old = slots
        slots = Array(repeating: 0, count: capacity)
        let mask = capacity - 1
        for entry in old where entry != 0 {
            var i = Int(truncatingIfNeeded: entry &>> 32) & mask
            while slots[i] != 0 { i = (i + 1) & mask }
            slots[i] = entry
        }
    }
}

extension FieldIndex: Equatable {
    /// The same ids at the same positions (the table only mirrors the dictionary).
    static func == (a: FieldIndex, b: FieldIndex) -> Bool { a.all == b.all }
}
