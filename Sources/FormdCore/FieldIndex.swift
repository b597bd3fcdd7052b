import FormdBytes

/// A form's field ids to their positions, found in O(1) for every command that names a field.
///
/// Why not only a `[String: Int]`: hashing a string with SipHash and comparing it through
/// the standard library cost more than the rest of a lookup, and a table of whole ids
/// spread over 10,000 fields misses the cache on every command (figures in
/// PERFORMANCE.md). Field ids are nearly always ASCII, so those are also kept in an
/// open-addressed table of 8-byte slots, each holding 32 bits of the id's hash and the
/// field's position; a slot whose hash matches is confirmed against the field's own id,
/// whose memory the command reads anyway. A short id (`ShortASCII.words(of:)`) is hashed
/// and compared as its two inline words, a longer one as its bytes. The other ids (not
/// ASCII) are in a dictionary, which Swift keys by canonical equivalence: two ASCII ids are
/// equal only byte for byte, but a few non-ASCII ones equal ASCII ones (the Kelvin sign
/// "\u{212A}" is "K"), so an ASCII id the table lacks is also looked for there, and such a
/// non-ASCII id also in the table, spelt in ASCII (`asciiSpelling(of:)`). Both hashes are
/// keyed with secrets drawn from Swift's per-process random hashing seed, so which ids
/// collide differs from one process to the next: a client cannot pick ids that pile into
/// one run of the table.
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

    /// The ids that are not ASCII, to their positions.
    private var others: [String: Int] = [:]
    /// The ASCII ids: `hash << 32 | (position + 1)`, 0 when empty; a slot's home is its hash
    /// masked. A power of two, at most three quarters full, or empty.
    private var slots: [UInt64] = []
    private var tableCount = 0
    /// The hashes' secrets, all drawn from `seed`.
    private let secrets: (UInt64, UInt64, UInt64)

    /// An index whose hashes are keyed by `seed` (the process's own, but for tests).
    init(seed: UInt64 = FieldIndex.processSeed) {
        var state = seed
        secrets = (Self.splitMix(&state), Self.splitMix(&state), Self.splitMix(&state))
    }

    /// Ids held.
    private(set) var count = 0

    /// The position of `id`, or nil. Inlined where it is used (`Form.index(of:)`): out of
    /// line, the caller's `idAt` would be built as a context, a copy of what it captures
    /// (the whole form).
    @inline(__always)
    func position(of id: String, idAt: (Int) -> String) -> Int? {
        if let key = ShortASCII.words(of: id) {
            if let p = shortPosition(key, idAt: idAt) { return p }
            return othersPosition(of: id)
        }
        return longOrOtherPosition(of: id, idAt: idAt)
    }

    /// The table's answer for a short ASCII id, given as its words.
    @inline(__always)
    private func shortPosition(_ key: (UInt64, UInt64), idAt: (Int) -> String) -> Int? {
        find(hash(key), where: { p in ShortASCII.words(of: idAt(p)).map { $0 == key } ?? false })
    }

    /// The position of a non-ASCII id equal to `id`; nil at once while there is none.
    private func othersPosition(of id: String) -> Int? {
        others.isEmpty ? nil : others[id]
    }

    /// The position of an id longer than `ShortASCII.capacity` or not ASCII.
    private func longOrOtherPosition(of id: String, idAt: (Int) -> String) -> Int? {
        if let found = longPosition(of: id, idAt: idAt) { return found ?? othersPosition(of: id) }
        if let p = othersPosition(of: id) { return p }
        guard let ascii = Self.asciiSpelling(of: id) else { return nil }
        if let key = ShortASCII.words(of: ascii) { return shortPosition(key, idAt: idAt) }
        return longPosition(of: ascii, idAt: idAt) ?? nil
    }

    /// The table's answer for an ASCII id longer than `ShortASCII.capacity`: its bytes
    /// hashed, a slot confirmed by the field's id having the same bytes. Nil (no answer)
    /// for an id that is not such an ASCII id.
    private func longPosition(of id: String, idAt: (Int) -> String) -> Int?? {
        id.utf8.withContiguousStorageIfAvailable { query -> Int?? in
            guard let hash = hash(bytes: query) else { return nil }
            return .some(find(hash) { p in
                idAt(p).utf8.withContiguousStorageIfAvailable { held in
                    held.count == query.count && SWAR.equal(held.baseAddress!, query.baseAddress!, count: query.count)
                } ?? false
            })
        } ?? nil
    }

    /// The ASCII string equal to the non-ASCII `id` (as Swift compares strings), if any: its
    /// ASCII characters, each of the three characters whose canonical decomposition is
    /// ASCII (U+037E GREEK QUESTION MARK ";", U+1FEF GREEK VARIA "`", U+212A KELVIN SIGN
    /// "K") as that, and nothing else (a test holds this list to Swift's own equality).
    static func asciiSpelling(of id: String) -> String? {
        var bytes: [UInt8] = []
        for scalar in id.unicodeScalars {
            switch scalar.value {
            case 0..<0x80: bytes.append(UInt8(scalar.value))
            case 0x037E: bytes.append(UInt8(ascii: ";"))
            case 0x1FEF: bytes.append(UInt8(ascii: "`"))
            case 0x212A: bytes.append(UInt8(ascii: "K"))
            default: return nil
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The position in the slot of hash `hash` that `confirms`, or nil.
    @inline(__always)
    private func find(_ hash: UInt32, where confirms: (Int) -> Bool) -> Int? {
        let tag = UInt64(hash)
        return slots.withUnsafeBufferPointer { table in
            guard !table.isEmpty else { return nil }
            let mask = table.count &- 1
            var i = Int(truncatingIfNeeded: tag) & mask
            while table[i] != 0 {
                if table[i] &>> 32 == tag {
                    let p = Int(truncatingIfNeeded: table[i] & 0xFFFF_FFFF) &- 1
                    if confirms(p) { return p }
                }
                i = (i &+ 1) & mask
            }
            return nil
        }
    }

    /// Asks for the slot where a lookup of `id` starts, for a lookup soon after: the first
    /// of its two dependent cache misses (PERFORMANCE.md, "prefetch"). Returns the id's
    /// hash, for `likelyPosition(hash:)`; nil (and nothing asked) for an id the table
    /// does not hold as a short one. A hint only; inlined where the lookahead asks.
    @inline(__always)
    func prefetchSlot(of id: String) -> UInt32? {
        guard !slots.isEmpty, let key = ShortASCII.words(of: id) else { return nil }
        let hash = hash(key)
        let home = Int(hash) & (slots.count &- 1)
        slots.withUnsafeBufferPointer { CacheLines.prefetch(UnsafeRawPointer($0.baseAddress! + home), count: 8) }
        return hash
    }

    /// The position named by the first slot of hash `hash` in the run where a lookup of it
    /// starts, within `likelyProbes` slots: likely, not confirmed, the field a lookup will
    /// find (for a prefetch). Not only the home slot: at three quarters full, about a third
    /// of the ids sit further down their run.
    func likelyPosition(hash: UInt32) -> Int? {
        slots.withUnsafeBufferPointer { table in
            guard !table.isEmpty else { return nil }
            let mask = table.count &- 1
            var i = Int(hash) & mask
            for _ in 0..<Self.likelyProbes {
                let entry = table[i]
                if entry == 0 { return nil }
                if entry &>> 32 == UInt64(hash) { return Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) &- 1 }
                i = (i &+ 1) & mask
            }
            return nil
        }
    }

    /// How far down a run `likelyPosition` looks: a cache line of slots.
    static let likelyProbes = 8

    /// The table's hash of `id`, or nil for an id the table does not hold (not ASCII).
    private func tableHash(of id: String) -> UInt32? {
        if let key = ShortASCII.words(of: id) { return hash(key) }
        return id.utf8.withContiguousStorageIfAvailable { hash(bytes: $0) } ?? nil
    }

    /// Adds `id` at the next position (`count`), unless an equal id is already there.
    /// Returns whether it was added.
    mutating func append(_ id: String, idAt: (Int) -> String) -> Bool {
        guard position(of: id, idAt: idAt) == nil else { return false }
        add(id, at: count)
        return true
    }

    /// Inserts `id` (not yet held) at `position`; the ids there and after move up by one.
    mutating func insert(_ id: String, at position: Int, idAt: (Int) -> String) {
        if position < count { shift(from: position, by: 1) }
        add(id, at: position)
    }

    /// Removes the id at `position`; the ids after it move down by one.
    mutating func remove(at position: Int, idAt: (Int) -> String) {
        let stored = idAt(position)
        if let hash = tableHash(of: stored) {
            removeSlot(hash, position)
        } else {
            others.removeValue(forKey: stored)
        }
        count -= 1
        if position < count { shift(from: position + 1, by: -1) }
    }

    /// Holds `id` (not held yet) at `position`.
    private mutating func add(_ id: String, at position: Int) {
        if let hash = tableHash(of: id) {
            addSlot(hash, position)
        } else {
            others[id] = position
        }
        count += 1
    }

    /// Every id at or after position `start` moves by `delta`.
    private mutating func shift(from start: Int, by delta: Int) {
        shiftSlots(from: start, by: delta)
        if !others.isEmpty { others = others.mapValues { $0 >= start ? $0 + delta : $0 } }
    }

    mutating func removeAll() {
        for i in slots.indices { slots[i] = 0 }
        tableCount = 0
        count = 0
        others.removeAll(keepingCapacity: true)
    }

    /// Makes room for `count` ids without growing again.
    mutating func reserveCapacity(_ count: Int) {
        if count * 4 > slots.count * 3 { grow(toHold: count) }
    }

    private mutating func addSlot(_ hash: UInt32, _ position: Int) {
        precondition(position < 0xFFFF_FFFF, "more fields than a slot's 32 bits of position hold")
        if (tableCount + 1) * 4 > slots.count * 3 { grow(toHold: tableCount + 1) }
        let mask = slots.count - 1
        var i = Int(hash) & mask
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = UInt64(hash) << 32 | UInt64(position + 1)
        tableCount += 1
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
        tableCount -= 1
    }

    /// Every slot holding a position at or after `start` moves by `delta`.
    private mutating func shiftSlots(from start: Int, by delta: Int) {
        let first = UInt64(start + 1)
        let step = UInt64(bitPattern: Int64(delta))
        for i in slots.indices where slots[i] != 0 && slots[i] & 0xFFFF_FFFF >= first {
            slots[i] = slots[i] &+ step
        }
    }

    /// 32 bits of the hash of a short id's two words: each goes through a
    /// multiply-xorshift finalizer after a secret, so every bit of either reaches every bit
    /// of the hash by way of the secrets.
    func hash(_ key: (UInt64, UInt64)) -> UInt32 {
        var h = key.0 ^ secrets.0
        h = (h ^ (h &>> 33)) &* 0xFF51_AFD7_ED55_8CCD
        h ^= key.1 ^ secrets.1
        h = (h ^ (h &>> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return UInt32(truncatingIfNeeded: (h ^ (h &>> 33)) &>> 32)
    }

    /// 32 bits of the hash of the bytes of an ASCII id longer than `ShortASCII.capacity`;
    /// nil for a shorter one or one that is not ASCII. Sixteen bytes at a time (the last
    /// sixteen overlapping the ones before) are folded in by a full-width multiply of both
    /// halves, each keyed with a secret and the hash so far; the count starts the hash.
    func hash(bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        let count = bytes.count
        guard count > ShortASCII.capacity, let start = bytes.baseAddress else { return nil }
        var h = secrets.2 ^ UInt64(truncatingIfNeeded: count)
        var seen: UInt64 = 0
        var p = start
        let last = start + (count &- 16)
        while p < last {
            let (a, b) = (SWAR.load(p), SWAR.load(p + 8))
            seen |= a | b
            h = Self.fold(a ^ secrets.0, b ^ h)
            p += 16
        }
        let (a, b) = (SWAR.load(last), SWAR.load(last + 8))
        guard (seen | a | b) & SWAR.highs == 0 else { return nil }
        h = Self.fold(a ^ secrets.1, b ^ h)
        h = Self.fold(h ^ secrets.0, secrets.2)
        return UInt32(truncatingIfNeeded: h ^ (h &>> 32))
    }

    /// Both halves of the 128-bit product, xored.
    @inline(__always)
    private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return high ^ low
    }

    /// The next of a sequence of well-spread 64-bit values from `state` (SplitMix64).
    private static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
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
    /// The same ids at the same positions (both keyed by the same secrets).
    static func == (a: FieldIndex, b: FieldIndex) -> Bool {
        a.count == b.count && a.others == b.others && a.secrets == b.secrets
            && Set(a.slots.filter { $0 != 0 }) == Set(b.slots.filter { $0 != 0 })
    }
}
