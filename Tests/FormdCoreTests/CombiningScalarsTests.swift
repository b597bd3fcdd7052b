@testable import FormdCore
import FormdTestSupport
import XCTest

/// `CombiningScalars` against the standard library's grapheme breaking (the Unicode data
/// of this toolchain): every mark joins every simple scalar that is not a possible
/// control, and starts a character of its own where nothing comes before it.
final class CombiningScalarsTests: XCTestCase {
    func testEveryMarkJoinsWhatComesBeforeItAndNothingAfter() {
        var marks = 0
        for v in UInt32(0)...0x10FFFF where CombiningScalars.isMark(v) {
            marks += 1
            let mark = Unicode.Scalar(v)!
            XCTAssertFalse(SimpleScalars.isSimple(v))
            // Joined to a letter, and again after itself; a letter after it, and a
            // consonant after a consonant and it (no virama: GB9c), break.
            for base: Unicode.Scalar in ["a", "\u{915}", "👍", "\u{301}"] {
                var text = String(base)
                text.unicodeScalars.append(mark)
                text.unicodeScalars.append(mark)
                text.unicodeScalars.append(base == "\u{301}" ? "a" : base)
                XCTAssertEqual(text.count, 2, "U+\(String(v, radix: 16)) after U+\(String(base.value, radix: 16))")
            }
            XCTAssertEqual((String(mark) + "a").count, 2, "U+\(String(v, radix: 16)) at the start")
        }
        XCTAssertGreaterThan(marks, 250)
        for s in ["\u{301}", "\u{308}", "\u{1F3FD}", "\u{FE0F}", "\u{20E3}", "\u{3099}"] {
            XCTAssertTrue(CombiningScalars.isMark(s.unicodeScalars.first!.value), s.debugDescription)
        }
        for s in ["a", "\u{200D}", "\u{94D}", "\u{903}", "\u{600}", "🇫", "\u{1100}", "\r"] {
            XCTAssertFalse(CombiningScalars.isMark(s.unicodeScalars.first!.value), s.debugDescription)
        }
    }

    /// A mark after any simple scalar but a possible control is one character with it;
    /// after a control it is not (so `mayBeControl` must hold every control).
    func testMarksJoinEverySimpleScalarThatIsNotAControl() {
        for v in UInt32(0)...0x10FFFF where SimpleScalars.isSimple(v) {
            var text = String(Unicode.Scalar(v)!)
            text.unicodeScalars.append("\u{301}")
            if !CombiningScalars.mayBeControl(v) {
                XCTAssertEqual(text.count, 1, "U+\(String(v, radix: 16))")
            }
        }
        for s in ["\t", "\n", "\u{7F}", "\u{AD}", "\u{200B}", "\u{2028}", "\u{FEFF}"] {
            XCTAssertEqual((s + "\u{301}").count, 2, s.debugDescription)
            XCTAssertTrue(CombiningScalars.mayBeControl(s.unicodeScalars.first!.value), s.debugDescription)
        }
    }

    /// Known texts (simple scalars and marks, no mark after a control) counted from their
    /// bytes, after nothing and after a letter (which leading marks join), give the
    /// library's count.
    func testKnownTextsAreCountedAsTheLibraryCounts() {
        var rng = SplitMix64(seed: 0xC4_A5)
        let pieces: [Unicode.Scalar] = ["a", "b", "e", " ", "é", "日", "Ω", "👍", "\u{301}", "\u{308}", "\u{1F3FD}", "\u{FE0F}",
                                        "\u{20E3}", "\u{3099}", "\u{E0100}", "\u{1AB0}", "\t", "\n"]
        var counted = 0
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<rng.next(below: 24) { text.unicodeScalars.append(pieces[rng.next(below: pieces.count)]) }
            let bytes = Array(text.utf8)
            let found = bytes.withUnsafeBufferPointer { b in
                (CombiningScalars.characters(b.baseAddress ?? UnsafePointer(bitPattern: 1)!, b.count, after: nil),
                 CombiningScalars.characters(b.baseAddress ?? UnsafePointer(bitPattern: 1)!, b.count, after: UInt32(("x" as Unicode.Scalar).value)))
            }
            let afterControl = zip(text.unicodeScalars, text.unicodeScalars.dropFirst()).contains { CombiningScalars.mayBeControl($0.value) && CombiningScalars.isMark($1.value) }
            let context = text.unicodeScalars.map { String($0.value, radix: 16) }.description
            if afterControl {
                XCTAssertNil(found.0, context)
                continue
            }
            counted += 1
            XCTAssertEqual(found.0, text.count, context)
            XCTAssertEqual(found.1, ("x" + text).count - 1, context)
            let known = bytes.withUnsafeBufferPointer { b in CombiningScalars.characters(known: b.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: b.count) }
            XCTAssertEqual(known, text.count, context)
        }
        XCTAssertGreaterThan(counted, 5_000)
    }

    /// Long texts (searched for CR at once, their ASCII eight words at a time), mostly
    /// ASCII with the odd mark, control, CR or letter of several bytes anywhere in them.
    func testLongTextsAreCountedAsTheLibraryCounts() {
        var rng = SplitMix64(seed: 0xC4_A6)
        let rare: [Unicode.Scalar] = ["\u{301}", "é", "日", "👍", "\u{1F3FD}", "\t", "\r", "\u{200D}"]
        let plain: [Unicode.Scalar] = ["a", "b", "c", "x", "y", "z", " "]
        for _ in 0..<3_000 {
            var text = ""
            for _ in 0..<(64 + rng.next(below: 300)) {
                text.unicodeScalars.append(rng.next(below: 60) == 0 ? rare[rng.next(below: rare.count)] : plain[rng.next(below: plain.count)])
            }
            let ascii = SimpleScalars.isFlaggedASCII(text)
            let found = Array(text.utf8).withUnsafeBufferPointer { CombiningScalars.characters($0.baseAddress!, $0.count, after: nil, ascii: ascii) }
            let scalars = Array(text.unicodeScalars)
            let unknown = scalars.contains { !CombiningScalars.isKnown($0.value) }
            let afterControl = zip(scalars, scalars.dropFirst()).contains { CombiningScalars.mayBeControl($0.value) && CombiningScalars.isMark($1.value) }
            XCTAssertEqual(found, unknown || afterControl ? nil : text.count, text.debugDescription)
        }
    }

    /// `knownCharacter(before:)`, ASCII read as bytes or not, gives the library's previous
    /// character boundary and that character's last scalar wherever it answers, and
    /// answers before every character of plain text.
    func testTheKnownCharacterBeforeABoundaryIsTheLibrarysCharacter() {
        var rng = SplitMix64(seed: 0xB4_C)
        let pieces = ["a", "b", " ", "\t", "\r", "\n", "\r\n", "é", "e\u{301}", "日", "👍", "👍\u{1F3FD}", "\u{AD}", "🇫🇷",
                      "\u{200D}", "\u{915}\u{94D}", "\u{1100}"]
        var answered = 0
        for _ in 0..<2_000 {
            let plain = rng.next(below: 3) == 0
            var text = ""
            for _ in 0..<(1 + rng.next(below: 12)) { text += pieces[rng.next(below: plain ? 3 : pieces.count)] }
            let bytes = Array(text.utf8)
            var i = text.endIndex
            while i > text.startIndex {
                let previous = text.index(before: i)
                let end = text.utf8.distance(from: text.startIndex, to: i)
                let found = bytes.withUnsafeBufferPointer { CombiningScalars.knownCharacter($0.baseAddress!, before: end) }
                if let found {
                    answered += 1
                    XCTAssertEqual(found.start, text.utf8.distance(from: text.startIndex, to: previous), text.debugDescription)
                    XCTAssertEqual(found.last, text[previous..<i].unicodeScalars.last!.value, text.debugDescription)
                } else {
                    XCTAssertFalse(plain, text.debugDescription)
                }
                i = previous
            }
        }
        XCTAssertGreaterThan(answered, 5_000)
    }

    /// The library's ASCII flag, read instead of the bytes (`SimpleScalars.isFlaggedASCII`),
    /// is set only on strings of ASCII, however they were made (literals, appended,
    /// decoded, cut, repeated), and is set on the long ASCII ones: the counting shortcut is
    /// taken, and gives what counting the bytes gives.
    func testTheASCIIFlagHoldsOnlyOnASCII() {
        var rng = SplitMix64(seed: 0xA5_C11)
        let pieces = ["a", "bc", " ", "\n", "\r", "é", "日", "👍", "\r\n", "x\u{301}"]
        var flagged = 0
        for _ in 0..<3_000 {
            var text = ""
            let asciiOnly = rng.next(below: 2) == 0
            for _ in 0..<rng.next(below: 120) { text += pieces[rng.next(below: asciiOnly ? 5 : pieces.count)] }
            let made = [text, String(decoding: Array(text.utf8), as: UTF8.self), String(text.dropFirst(rng.next(below: 4))),
                        text + "abcdefghijklmnopqrstuvwxyz", String(repeating: text, count: 2)]
            for s in made {
                let isASCII = s.utf8.allSatisfy { $0 < 0x80 }
                if SimpleScalars.isFlaggedASCII(s) {
                    flagged += 1
                    XCTAssertTrue(isASCII, s.debugDescription)
                    let counted = Array(s.utf8).withUnsafeBufferPointer { CombiningScalars.characters($0.baseAddress!, $0.count, after: nil) }
                    let read = Array(s.utf8).withUnsafeBufferPointer { CombiningScalars.characters($0.baseAddress!, $0.count, after: nil, ascii: true) }
                    XCTAssertEqual(read, counted, s.debugDescription)
                } else if isASCII && s.utf8.count > 15 {
                    XCTFail("long ASCII string not flagged: \(s.debugDescription)")
                }
            }
        }
        XCTAssertGreaterThan(flagged, 3_000)
    }
}
