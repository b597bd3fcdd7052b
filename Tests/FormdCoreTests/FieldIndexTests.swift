@testable import FormdCore
import FormdBytes
import FormdTestSupport
import XCTest

/// `FieldIndex` against a dictionary of the same ids: random appends, inserts and removals
/// of ids of every kind (short ASCII held inline or out of line, long ASCII of every length
/// around the hash's 16-byte steps, long non-ASCII, empty, canonically equal spellings, ids
/// whose 32-bit hashes collide), every id looked up after every step, absent ones included;
/// and the hashes' keying: ids that pile into one slot under one seed scatter under another.
final class FieldIndexTests: XCTestCase {
    /// Ids that look alike to the table: short ASCII of every length, the same text held
    /// out of line, ids of 15 and 16 bytes, non-ASCII and canonically equal spellings.
    static func id(_ n: Int, _ rng: inout SplitMix64) -> String {
        switch rng.next(below: 9) {
        case 0: return "f\(n)"
        case 1:
            // Held out of line: built by appending to a long string, then cut short.
            var s = String(repeating: "x", count: 40) + "f\(n)"
            s.removeFirst(40)
            return s
        case 2: return String(repeating: "a", count: 15 - min(n % 8, 7)) + "\(n % 10)"
        case 3: return "a-much-longer-field-id-\(n)"
        case 4: return "é\(n)"
        case 5: return n % 2 == 0 ? "e\u{301}\(n)" : "\u{E9}\(n)"
        // 16 to 40 bytes, as literals build them or as appending does; one in eight ends
        // (or starts) with a non-ASCII letter, where the hash's last step reads it.
        case 6: return longID(n, length: 16 + n % 25)
        case 7:
            var s = longID(n, length: 16 + n % 25)
            s.append("")
            return n % 8 == 0 ? s + "\u{E9}" : n % 8 == 1 ? "\u{E9}" + s : s
        // Equal to the ASCII "K\(n)" that case 0's neighbours may store.
        default: return n % 2 == 0 ? "\u{212A}\(n % 50)" : "K\(n % 50)"
        }
    }

    /// An ASCII id of `length` bytes ending in `n`'s digits.
    static func longID(_ n: Int, length: Int) -> String {
        let digits = String(n)
        let stem = Array("customer.address.line.of.a.form".utf8)
        return String(decoding: (0..<max(0, length - digits.count)).map { stem[$0 % stem.count] }, as: UTF8.self) + digits
    }

    /// Pairs of different short ids whose 32-bit hashes are equal in this process (so the
    /// table can tell them apart only by the field's own id).
    static let collidingIDs = colliding { "c\($0)" }

    /// The same for ids longer than the inline 15 bytes.
    static let collidingLongIDs = colliding { longID($0, length: 27) }

    /// Four pairs of the ids `make` makes whose hashes are equal in this process.
    static func colliding(_ make: (Int) -> String) -> [String] {
        let index = FieldIndex()
        var seen: [UInt32: String] = [:]
        var out: [String] = []
        var n = 0
        while out.count < 8 {
            let id = make(n)
            n += 1
            if let other = seen.updateValue(id, forKey: hash(of: id, in: index)!) { out += [other, id] }
        }
        return out
    }

    /// The table's hash of `id` under `index`'s secrets; nil for an id it does not hold.
    static func hash(of id: String, in index: FieldIndex) -> UInt32? {
        if let words = ShortASCII.words(of: id) { return index.hash(words) }
        var bytes = Array(id.utf8)
        return bytes.withUnsafeMutableBufferPointer { index.hash(bytes: UnsafeBufferPointer($0)) }
    }

    /// The reference: each id to its position, as a dictionary compares strings.
    private func reference(_ ids: [String]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
    }

    private func checkRandomChanges(pool: [String], rounds: Int, steps: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for round in 0..<rounds {
            var index = FieldIndex()
            var ids: [String] = []
            for step in 0..<steps {
                let id = pool[rng.next(below: pool.count)]
                let held = reference(ids)[id] != nil
                switch rng.next(below: 4) {
                case 0 where !ids.isEmpty:
                    let p = rng.next(below: ids.count)
                    index.remove(at: p, idAt: { ids[$0] })
                    ids.remove(at: p)
                case 1 where !held:
                    let p = rng.next(below: ids.count + 1)
                    index.insert(id, at: p, idAt: { ids[$0] })
                    ids.insert(id, at: p)
                default:
                    XCTAssertEqual(index.append(id, idAt: { ids[$0] }), !held, "\(id.debugDescription) at step \(step)")
                    if !held { ids.append(id) }
                }
                XCTAssertEqual(index.count, ids.count)
                if step % 50 == 0 || round == 0 {
                    let model = reference(ids)
                    for probe in pool {
                        XCTAssertEqual(index.position(of: probe, idAt: { ids[$0] }), model[probe],
                                       "\(probe.debugDescription) at step \(step) of round \(round)")
                    }
                }
            }
        }
    }

    func testMatchesADictionaryThroughRandomChanges() {
        var rng = SplitMix64(seed: 0x1D)
        var pool: [String] = [""]
        for n in 0..<300 { pool.append(Self.id(n, &rng)) }
        checkRandomChanges(pool: pool, rounds: 10, steps: 1000, seed: 0x2E)
    }

    func testIDsWithCollidingHashesAreToldApartByTheFieldsID() {
        let colliding = Self.collidingIDs
        let index = FieldIndex()
        for pair in stride(from: 0, to: colliding.count, by: 2) {
            XCTAssertNotEqual(colliding[pair], colliding[pair + 1])
            XCTAssertEqual(index.hash(ShortASCII.words(of: colliding[pair])!), index.hash(ShortASCII.words(of: colliding[pair + 1])!))
        }
        // Only one of a colliding pair held: the other is absent, not found at its place.
        var one = FieldIndex()
        XCTAssertTrue(one.append(colliding[0], idAt: { colliding[$0] }))
        XCTAssertNil(one.position(of: colliding[1], idAt: { _ in colliding[0] }))
        XCTAssertTrue(one.append(colliding[1], idAt: { colliding[$0] }))
        XCTAssertEqual(one.position(of: colliding[1], idAt: { colliding[$0] }), 1)
        let long = Self.collidingLongIDs
        for pair in stride(from: 0, to: long.count, by: 2) {
            XCTAssertNotEqual(long[pair], long[pair + 1])
            XCTAssertEqual(Self.hash(of: long[pair], in: index), Self.hash(of: long[pair + 1], in: index))
        }
        var oneLong = FieldIndex()
        XCTAssertTrue(oneLong.append(long[0], idAt: { long[$0] }))
        XCTAssertNil(oneLong.position(of: long[1], idAt: { _ in long[0] }))
        XCTAssertEqual(oneLong.position(of: long[0], idAt: { _ in long[0] }), 0)
        var rng = SplitMix64(seed: 0x3F)
        var pool = colliding + long + ["K1", "\u{212A}1", "\u{E9}", "e\u{301}", ""]
        for n in 0..<40 { pool.append(Self.id(n, &rng)) }
        checkRandomChanges(pool: pool, rounds: 10, steps: 1000, seed: 0x40)
    }

    func testEqualStringsFindTheSameFieldHoweverTheyAreHeld() {
        var index = FieldIndex()
        var ids: [String] = []
        func add(_ id: String) -> Bool {
            guard index.append(id, idAt: { ids[$0] }) else { return false }
            ids.append(id)
            return true
        }
        func find(_ id: String) -> Int? { index.position(of: id, idAt: { ids[$0] }) }
        XCTAssertTrue(add("email"))
        var outOfLine = String(repeating: "-", count: 32) + "email"
        outOfLine.removeFirst(32)
        XCTAssertEqual(find(outOfLine), 0)
        XCTAssertFalse(add(outOfLine))
        XCTAssertTrue(add("\u{E9}t\u{E9}"))
        XCTAssertEqual(find("e\u{301}te\u{301}"), 1, "canonically equal, as Swift compares strings")
        // Non-ASCII strings equal to ASCII ones: the Kelvin sign is "K", the Greek question
        // mark ";". Either spelling finds the field stored under the other, and is the
        // same id when added again.
        XCTAssertTrue(add("K"))
        XCTAssertEqual(find("\u{212A}"), 2)
        XCTAssertFalse(add("\u{212A}"))
        XCTAssertTrue(add("\u{037E}"))
        XCTAssertEqual(find(";"), 3)
        XCTAssertFalse(add(";"))
        index.remove(at: 2, idAt: { ids[$0] })
        ids.remove(at: 2)
        XCTAssertNil(find("K"))
        XCTAssertNil(find("\u{212A}"))
        XCTAssertEqual(find(";"), 2)
        XCTAssertEqual(index.count, 3)
    }

    func testEqualityIgnoresTheOrderIdsWentIn() {
        var a = FieldIndex(), b = FieldIndex()
        let ids = (0..<100).map { "f\($0)" } + ["a-much-longer-field-id", "é"]
        var inA: [String] = []
        for id in ids {
            XCTAssertTrue(a.append(id, idAt: { inA[$0] }))
            inA.append(id)
        }
        var inB: [String] = []
        for id in ids.reversed() {
            b.insert(id, at: 0, idAt: { inB[$0] })
            inB.insert(id, at: 0)
        }
        XCTAssertEqual(a, b)
        b.remove(at: 99, idAt: { inB[$0] })
        inB.remove(at: 99)
        XCTAssertNotEqual(a, b)
        b.insert("f99", at: 99, idAt: { inB[$0] })
        XCTAssertEqual(a, b)
    }

    func testLongIDsAreHashedOnlyWhenASCIIAndByEveryByte() {
        let index = FieldIndex(seed: 7)
        let base = Array("customer.address.line000047-and-some-more-bytes".utf8)
        for count in 16...base.count {
            let bytes = Array(base.prefix(count))
            let h = bytes.withUnsafeBufferPointer { index.hash(bytes: $0) }
            XCTAssertNotNil(h, "\(count) ASCII bytes")
            // Any one byte changed, wherever it is (the steps overlap at the end), changes
            // the hash here; any one byte past ASCII removes the id from the table.
            for i in 0..<count {
                var changed = bytes
                changed[i] ^= 0x01
                XCTAssertNotEqual(changed.withUnsafeBufferPointer { index.hash(bytes: $0) }, h, "byte \(i) of \(count)")
                changed[i] = 0xC3
                XCTAssertNil(changed.withUnsafeBufferPointer { index.hash(bytes: $0) }, "byte \(i) of \(count) not ASCII")
            }
        }
        XCTAssertNil(Array("fifteen-bytes-!".utf8).withUnsafeBufferPointer { index.hash(bytes: $0) }, "short ids go by their words")
    }

    /// Hash flooding: ids a client picked to share one home slot (found here by trying
    /// ids against one seed, as a client that knew the seed could) spread out under any
    /// other seed, as every process draws its own; short and long ids alike.
    func testIDsThatShareASlotUnderOneSeedScatterUnderAnother() {
        let slots = 1024
        for long in [false, true] {
            let known = FieldIndex(seed: 0x5EED)
            var flood: [String] = []
            var n = 0
            while flood.count < 64 {
                let id = long ? Self.longID(n, length: 27) : "f\(n)"
                n += 1
                if Int(Self.hash(of: id, in: known)!) % slots == 0 { flood.append(id) }
            }
            for seed: UInt64 in [1, 2, 0xC0FFEE, 0xDEAD_BEEF_F00D] {
                let other = FieldIndex(seed: seed)
                var homes: [Int: Int] = [:]
                for id in flood { homes[Int(Self.hash(of: id, in: other)!) % slots, default: 0] += 1 }
                // 64 ids over 1,024 slots: by chance no slot gets more than a few.
                XCTAssertLessThanOrEqual(homes.values.max()!, 4, "long: \(long), seed \(seed)")
            }
        }
    }

    /// The hashes are keyed by the process's seed, not fixed: two seeds give different ones.
    func testTheSeedKeysBothHashes() {
        let a = FieldIndex(seed: 1), b = FieldIndex(seed: 2)
        let short = (0..<100).filter { Self.hash(of: "f\($0)", in: a) == Self.hash(of: "f\($0)", in: b) }
        let long = (0..<100).filter { Self.hash(of: Self.longID($0, length: 30), in: a) == Self.hash(of: Self.longID($0, length: 30), in: b) }
        XCTAssertEqual(short, [])
        XCTAssertEqual(long, [])
    }
}

/// `FieldIndex.asciiSpelling(of:)` knows every non-ASCII string Swift holds equal to an
/// ASCII one: a string is, exactly when each of its scalars is, and of the scalars beyond
/// ASCII only the three it lists are.
final class ASCIISpellingTests: XCTestCase {
    func testEveryScalarEqualToAnASCIICharacterIsSpeltAsIt() {
        let ascii = Dictionary(uniqueKeysWithValues: (0..<0x80).map { (String(UnicodeScalar(UInt8($0))), UInt8($0)) })
        var equal: [UInt32: UInt8] = [:]
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = UnicodeScalar(value) else { continue }
            if let byte = ascii[String(scalar)] { equal[value] = byte }
        }
        XCTAssertEqual(equal, [0x037E: UInt8(ascii: ";"), 0x1FEF: UInt8(ascii: "`"), 0x212A: UInt8(ascii: "K")])
        for (value, byte) in equal {
            let id = "a" + String(UnicodeScalar(value)!) + "b"
            XCTAssertEqual(FieldIndex.asciiSpelling(of: id), "a" + String(UnicodeScalar(byte)) + "b")
        }
        XCTAssertNil(FieldIndex.asciiSpelling(of: "e\u{301}"))
        XCTAssertNil(FieldIndex.asciiSpelling(of: "\u{212B}"))
    }
}
