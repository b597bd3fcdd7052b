@testable import FormdCore
import FormdTestSupport
import XCTest

/// `SimpleScalars` against the standard library's grapheme breaking (the Unicode data of
/// this toolchain): every scalar it calls simple is a character of its own beside any
/// other simple scalar, and decoding and counting agree with the library's.
final class SimpleScalarsTests: XCTestCase {
    /// A scalar joined to a neighbour by some rule (Extend, ZWJ, SpacingMark, Prepend)
    /// does not stay alone between two letters; Hangul jamo and syllables and regional
    /// indicators join only their own kind, so it is put beside each of those too.
    func testEverySimpleScalarIsACharacterOfItsOwnBetweenLetters() {
        let kinds: [Unicode.Scalar] = ["a", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{AC00}", "\u{AC01}", "\u{1F1EB}"]
        var simple = 0
        for v in UInt32(0)...0x10FFFF where SimpleScalars.isSimple(v) {
            let scalar = Unicode.Scalar(v)!
            simple += 1
            XCTAssertNotEqual(v, 0x0D)
            for k in kinds {
                var text = String(k)
                text.unicodeScalars.append(scalar)
                text.unicodeScalars.append(k)
                XCTAssertEqual(text.count, 3, "U+\(String(v, radix: 16)) beside U+\(String(k.value, radix: 16))")
            }
        }
        // The common scripts are in: a table that lost a range would pass the checks above.
        XCTAssertGreaterThan(simple, 150_000)
        for s in ["é", "ß", "Ω", "ж", "ա", "א", "ب", "क", "日", "の", "テ", "。", "Ａ", "👍", "€", "—", "\n", "\t", "\u{AD}"] {
            XCTAssertTrue(SimpleScalars.isSimple(s.unicodeScalars.first!.value), s.debugDescription)
        }
        for s in ["\r", "\u{301}", "\u{200D}", "\u{1F3FD}", "🇫", "\u{1100}", "각", "\u{600}", "\u{903}", "\u{94D}", "\u{3099}", "\u{FE0F}"] {
            XCTAssertFalse(SimpleScalars.isSimple(s.unicodeScalars.first!.value), s.debugDescription)
        }
    }

    /// Random pairs and runs of simple scalars: the library finds a boundary between every two.
    func testRunsOfSimpleScalarsHaveACharacterPerScalar() {
        var rng = SplitMix64(seed: 0x51_4D)
        let pool = (UInt32(0)...0x10FFFF).filter { v in SimpleScalars.isSimple(v) && rng.next(below: 64) == 0 }
        for _ in 0..<20_000 {
            var text = ""
            let count = 1 + rng.next(below: 6)
            for _ in 0..<count { text.unicodeScalars.append(Unicode.Scalar(pool[rng.next(below: pool.count)])!) }
            XCTAssertEqual(text.count, count, text.unicodeScalars.map { String($0.value, radix: 16) }.description)
            let counted = text.utf8.withContiguousStorageIfAvailable { CombiningScalars.characters($0.baseAddress!, $0.count, after: nil) } ?? nil
            XCTAssertEqual(counted, count)
        }
    }

    /// Regional indicators are found wherever they lie among scalars of every length (and
    /// bytes F0 that start other four-byte scalars), and only there.
    func testRegionalIndicatorsAreFoundWhereverTheyAre() {
        var rng = SplitMix64(seed: 0xF1A6)
        let pieces = ["a", "é", "日", "👍", "\u{10000}", "\u{1F1E5}", "\u{1F200}", "abcdefgh", "ßü", "\u{1F1E6}", "\u{1F1FF}", "🇫"]
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<rng.next(below: 24) {
                let piece = pieces[rng.next(below: pieces.count)]
                // Regional indicators in one text of four.
                if piece.unicodeScalars.contains(where: { (0x1F1E6...0x1F1FF).contains($0.value) }) && rng.next(below: 4) != 0 { continue }
                text += piece
            }
            if text.isEmpty { continue }
            let expected = text.unicodeScalars.contains { (0x1F1E6...0x1F1FF).contains($0.value) }
            let found = text.utf8.withContiguousStorageIfAvailable { SimpleScalars.hasRegionalIndicator($0.baseAddress!, $0.count) }
            XCTAssertEqual(found, expected, text.unicodeScalars.map { String($0.value, radix: 16) }.description)
        }
    }

    func testDecodingAndScalarStartsAgreeWithTheLibrary() {
        let text = "aé日👍\n\u{301}\u{10FFFF}\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}"
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { b in
            var i = 0
            for scalar in text.unicodeScalars {
                let (value, length) = SimpleScalars.decode(b.baseAddress! + i)
                XCTAssertEqual(value, scalar.value)
                XCTAssertEqual(length, scalar.utf8.count)
                XCTAssertEqual(SimpleScalars.scalarStart(b.baseAddress!, before: i + length), i)
                i += length
            }
            XCTAssertEqual(i, bytes.count)
        }
        // A run that is not all known counts as nil, as does a mark after a control; CR is
        // never simple (CR LF joins).
        for s in ["a\t\u{301}", "abcdefgh\r", "\r\n", "abcdefghijklmnop\u{200D}"] {
            XCTAssertNil(s.utf8.withContiguousStorageIfAvailable { CombiningScalars.characters($0.baseAddress!, $0.count, after: nil) } ?? 0, s.debugDescription)
        }
    }
}
