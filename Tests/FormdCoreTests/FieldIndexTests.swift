@testable import FormdCore
import FormdTestSupport
import XCTest

/// `FieldIndex` against a dictionary: random adds, moves and removals of ids of every
/// kind (short ASCII held inline or out of line, long, non-ASCII, empty), every id looked
/// up after every step, absent ones included.
final class FieldIndexTests: XCTestCase {
    /// Ids that look alike to the table: short ASCII of every length, the same text held
    /// out of line, ids of 15 and 16 bytes, non-ASCII and canonically equal spellings.
    static func id(_ n: Int, _ rng: inout SplitMix64) -> String {
        switch rng.next(below: 7) {
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
        // Equal to the ASCII "K\(n)" that case 0's neighbours may store.
        default: return n % 2 == 0 ? "\u{212A}\(n % 50)" : "K\(n % 50)"
        }
    }

    func testMatchesADictionaryThroughRandomChanges() {
        var rng = SplitMix64(seed: 0x1D)
        for round in 0..<20 {
            var index = FieldIndex()
            var reference: [String: Int] = [:]
            var pool: [String] = [""]
            for n in 0..<300 { pool.append(Self.id(n + round * 1000, &rng)) }
            for step in 0..<2000 {
                let id = pool[rng.next(below: pool.count)]
                if rng.next(below: 3) == 0 {
                    index.removeValue(forKey: id)
                    reference[id] = nil
                } else {
                    XCTAssertEqual(index.updateValue(step, forKey: id), reference.updateValue(step, forKey: id))
                }
                if step % 50 == 0 || round == 0 {
                    for probe in pool { XCTAssertEqual(index[probe], reference[probe], "\(probe.debugDescription) at step \(step)") }
                }
                XCTAssertEqual(index.count, reference.count)
            }
        }
    }

    func testEqualStringsFindTheSameFieldHoweverTheyAreHeld() {
        var index = FieldIndex()
        index.updateValue(7, forKey: "email")
        var outOfLine = String(repeating: "-", count: 32) + "email"
        outOfLine.removeFirst(32)
        XCTAssertEqual(index[outOfLine], 7)
        index.updateValue(8, forKey: "\u{E9}t\u{E9}")
        XCTAssertEqual(index["e\u{301}te\u{301}"], 8, "canonically equal, as Swift compares strings")
        // Non-ASCII strings equal to ASCII ones: the Kelvin sign is "K", the Greek question
        // mark ";". Either spelling finds the field stored under the other, and is the
        // same id when stored again.
        index.updateValue(9, forKey: "K")
        XCTAssertEqual(index["\u{212A}"], 9)
        XCTAssertEqual(index.updateValue(10, forKey: "\u{212A}"), 9)
        XCTAssertEqual(index["K"], 10)
        index.updateValue(11, forKey: "\u{037E}")
        XCTAssertEqual(index[";"], 11)
        XCTAssertEqual(index.updateValue(12, forKey: ";"), 11)
        XCTAssertEqual(index["\u{037E}"], 12)
        index.removeValue(forKey: "\u{212A}")
        XCTAssertNil(index["K"])
        index.removeValue(forKey: ";")
        XCTAssertNil(index["\u{037E}"])
        XCTAssertEqual(index.count, 2)
    }

    func testEqualityIgnoresTheOrderIdsWentIn() {
        var a = FieldIndex(), b = FieldIndex()
        let ids = (0..<100).map { "f\($0)" } + ["a-much-longer-field-id", "é"]
        for (i, id) in ids.enumerated() { a.updateValue(i, forKey: id) }
        for (i, id) in ids.enumerated().reversed() { b.updateValue(i, forKey: id) }
        XCTAssertEqual(a, b)
        b.updateValue(0, forKey: "f99")
        XCTAssertNotEqual(a, b)
        b.updateValue(99, forKey: "f99")
        b.removeValue(forKey: "é")
        XCTAssertNotEqual(a, b)
    }
}
