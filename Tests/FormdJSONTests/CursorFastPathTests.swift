import FormdBytes
import FormdTestSupport
import XCTest
@testable import FormdJSON

/// The cursor's fast paths against the general ones: integers below 10^8 made eight
/// digits at a time (and one more than the last from its digits), strings held inline
/// quoted from their two words, longer ones copied a word at a time as they are checked.
final class CursorFastPathTests: XCTestCase {
    func written(_ body: (inout JSONWriter) -> Void) -> String {
        var w = JSONWriter(reservingCapacity: 1)
        body(&w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    func testIntegersOfEveryDigitCountAndAtEveryEdge() {
        var values = Array(0..<20_000) + [99_999_999, 100_000_000, 100_000_001, -1, -99_999_999, Int.max, Int.min]
        var power = 1
        for _ in 0...18 {
            values += [power - 1, power, power + 1, 2 * power - 1, 5 * power, 9 * power + 1]
            if power <= Int.max / 10 { power *= 10 }
        }
        var rng = SplitMix64(seed: 31)
        for _ in 0..<50_000 {
            // Uniform in digit count, not in value: as many 3-digit numbers as 8-digit ones.
            let digits = rng.next(below: 18) + 1
            var v = 0
            for _ in 0..<digits { v = v * 10 + rng.next(below: 10) }
            values += [v, -v]
        }
        for v in values {
            // Twice in a row: the eight bytes stored whole are overwritten by the next write.
            XCTAssertEqual(written { $0.writeInt(v); $0.writeInt(v, after: ",") }, "\(v),\(v)")
        }
    }

    func testCountedIntegersAreWrittenAsAnyOther() {
        // Runs going up by one across every carry and digit count, jumps, repeats, going
        // down, negatives and numbers past 10^8: each written as `String(v)` would.
        var values = Array(0..<1_200) + Array(99_999_990..<100_000_010) + Array(9_990..<10_010) + [5, 5, 4, 3, -1, 0, 1, Int.max, Int.min, 7]
        var rng = SplitMix64(seed: 37)
        for _ in 0..<2_000 {
            let start = rng.next(below: 200_000_000) - 1_000
            values += Array(start..<start + rng.next(below: 30))
        }
        var counter = DecimalCounter()
        var plain = JSONWriter(), counted = JSONWriter()
        for v in values {
            plain.writeInt(v, after: ",")
            counted.write(upTo: 1 + JSONCursor.intBound) { c in
                c.raw(",")
                c.int(v, following: &counter)
            }
        }
        XCTAssertEqual(String(decoding: counted.bytes, as: UTF8.self), String(decoding: plain.bytes, as: UTF8.self))
    }

    /// `s` with the same bytes held in a heap buffer instead of inline.
    func heldOutOfLine(_ s: String) -> String {
        var copy = String()
        copy.reserveCapacity(64)
        copy.append(contentsOf: s)
        return copy
    }

    func testInlineAndOutOfLineStringsAreQuotedAlike() {
        let fillers = ["a", "é", "中"]
        let specials = ["\"", "\\", "\n", "\u{1}", "\u{1F}", "\u{0}", "\u{7F}", "/", "é"]
        var cases: [String] = [""]
        for filler in fillers {
            for length in 1...15 {
                let base = Array(repeating: filler, count: length)
                cases.append(base.joined())
                for position in 0..<length {
                    for special in specials {
                        var chars = base
                        chars[position] = special
                        cases.append(chars.joined())
                    }
                }
            }
        }
        var inline = 0, short = 0
        for s in cases {
            let outOfLine = heldOutOfLine(s)
            XCTAssertNil(ShortUTF8.inlineWords(of: outOfLine), "the general path is the one tested")
            if ShortUTF8.inlineWords(of: s) != nil { inline += 1 }
            if s.utf8.count <= 15 { short += 1 }
            let expected = referenceQuoted(s)
            XCTAssertEqual(written { $0.writeString(s) }, expected, s.debugDescription)
            XCTAssertEqual(written { $0.writeString(outOfLine) }, expected, s.debugDescription)
            // After other output, and followed by more: the words stored whole are overwritten.
            XCTAssertEqual(written { $0.writeRaw("[1,"); $0.writeString(s); $0.writeRaw(",2]") }, "[1," + expected + ",2]")
        }
        XCTAssertEqual(inline, short, "every string of at most 15 bytes here is held inline, and takes the inline path")
    }

    func testLongStringsWithASpecialByteAnywhere() {
        let specials = ["\"", "\\", "\n", "\u{1}", "\u{1F}", "\u{7F}", "é", "中"]
        for length in 8...80 {
            let base = Array(repeating: "a", count: length)
            XCTAssertEqual(written { $0.writeString(heldOutOfLine(base.joined())) }, referenceQuoted(base.joined()))
            for position in 0..<length {
                for special in specials {
                    var chars = base
                    chars[position] = special
                    // Two specials: the escaping goes on from the first.
                    if position + 5 < length { chars[position + 5] = "\\" }
                    let s = heldOutOfLine(chars.joined())
                    XCTAssertEqual(written { $0.writeString(s) }, referenceQuoted(s), s.debugDescription)
                }
            }
        }
    }
}
