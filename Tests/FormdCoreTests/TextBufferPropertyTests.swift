@testable import FormdCore
import FormdTestSupport
import XCTest

/// `TextBuffer.replace` keeps length, caret and change right without recounting, and takes
/// shortcuts among known scalars (`TextBuffer+ASCIIEdits.swift`, `TextBuffer+KnownEdits.swift`)
/// that must agree with its general path; here thousands of
/// random edits over texts that mix plain text (ASCII, or letters, CJK and emoji of several
/// bytes) with every clustering hazard (CR LF, combining marks, prepended scalars, spacing
/// marks, emoji modifiers and ZWJ, regional indicators, Hangul jamo, Indic conjuncts) are
/// checked against a count from scratch, on short texts (the inline splice) and long ones.
final class TextBufferPropertyTests: XCTestCase {
    static let ascii = ["a", "b", " ", "x"]
    /// Characters of one simple scalar each, of one to four bytes.
    static let simple = ["a", "é", "日", "Ω", "👍", " ", "ß", "\n", "の", "\u{AD}"]
    static let hazards = ["\r", "\n", "\u{301}", "é", "\u{600}", "👍", "\u{1F3FD}", "🇫", "🇷", "\u{200D}", "\u{1100}", "\u{1161}",
                          "\u{11A8}", "각", "\u{915}", "\u{94D}", "\u{903}", "\u{3099}", "\t", "\r\n"]

    /// Mostly plain text, as typed text is, so the fast paths are taken often; one piece
    /// in `hazardEvery` (0: none) from the hazards.
    func randomText(_ rng: inout SplitMix64, pieces count: Int, hazardEvery: Int = 3, plain: [String] = ascii) -> String {
        (0..<count).map { _ in
            hazardEvery > 0 && rng.next(below: hazardEvery) == 0 ? Self.hazards[rng.next(below: Self.hazards.count)] : plain[rng.next(below: plain.count)]
        }.joined()
    }

    func cursor(_ text: String, at offset: Int) -> Cursor {
        Cursor(text.index(text.startIndex, offsetBy: offset), offset)
    }

    func testRandomEditsAgreeWithACountFromScratch() {
        checkRandomEdits(seed: 0xF0_4D, rounds: 4_000, textPieces: 8, hazardEvery: 3)
        checkRandomEdits(seed: 0xF0_4E, rounds: 4_000, textPieces: 8, hazardEvery: 3, plain: Self.simple)
    }

    /// Texts of characters of several bytes, where the simple path compares and counts
    /// bytes that are not characters.
    func testRandomEditsOfNonASCIITextsAgreeWithACountFromScratch() {
        checkRandomEdits(seed: 0x5C1, rounds: 3_000, textPieces: 12, hazardEvery: 0, plain: Self.simple)
        checkRandomEdits(seed: 0x5C2, rounds: 1_000, textPieces: 120, hazardEvery: 30, plain: Self.simple)
        checkRandomEdits(seed: 0x5C3, rounds: 3_000, textPieces: 6, hazardEvery: 2, plain: ["é", "e"])
    }

    /// Texts of letters with combining marks, emoji with skin tones and variation
    /// selectors, controls before marks, and every hazard beside them: the known path
    /// (`TextBuffer+KnownEdits.swift`) must be taken often and agree with the general one.
    static let combining = ["a", "e", "\u{301}", "\u{308}", "é", "日", "👍", "\u{1F3FD}", "\u{FE0F}", " ", "\t", "\n", "\u{20E3}", "Ω"]

    func testRandomEditsOfCombiningTextsAgreeWithACountFromScratch() {
        checkRandomEdits(seed: 0xC0_1, rounds: 3_000, textPieces: 10, hazardEvery: 0, plain: Self.combining)
        checkRandomEdits(seed: 0xC0_2, rounds: 3_000, textPieces: 10, hazardEvery: 4, plain: Self.combining)
        checkRandomEdits(seed: 0xC0_3, rounds: 500, textPieces: 80, hazardEvery: 20, plain: Self.combining)
    }

    /// The known path taken on its own, against the general path: short and long texts
    /// (past the inline splice), of marks, of simple scalars, with hazards among them, and
    /// whole texts replaced by ones that share a long start or end with them (where the
    /// change's ends are found far from the edit's).
    func testTheKnownPathIsTakenAndAgreesWithTheGeneralPath() {
        checkKnownPath(seed: 0xC0_4, rounds: 4_000, pieces: 12, inserted: 4, hazardEvery: 6, plain: Self.combining, takenAtLeast: 1_300)
        checkKnownPath(seed: 0xC0_5, rounds: 1_500, pieces: 200, inserted: 6, hazardEvery: 60, plain: Self.combining, takenAtLeast: 300)
        checkKnownPath(seed: 0xC0_6, rounds: 1_500, pieces: 150, inserted: 6, hazardEvery: 0, plain: Self.simple, takenAtLeast: 1_400)
        checkKnownPath(seed: 0xC0_7, rounds: 3_000, pieces: 6, inserted: 3, hazardEvery: 0, plain: ["e", "\u{301}", "\t", "é", "👍", "\u{1F3FD}"], takenAtLeast: 1_000)
    }

    func checkKnownPath(seed: UInt64, rounds: Int, pieces: Int, inserted: Int, hazardEvery: Int, plain: [String], takenAtLeast: Int) {
        var rng = SplitMix64(seed: seed)
        var taken = 0
        for round in 0..<rounds {
            let old = randomText(&rng, pieces: rng.next(below: pieces), hazardEvery: hazardEvery, plain: plain)
            let n = old.count
            var a = rng.next(below: n + 1), b = rng.next(below: n + 1)
            var s = randomText(&rng, pieces: rng.next(below: inserted), hazardEvery: hazardEvery, plain: plain)
            switch rng.next(below: 6) {
            case 0: (a, b) = (n, n)  // typing at the end
            case 1: (a, b) = (max(n - 1, 0), n)  // deleting at the end
            case 2:
                // The whole text replaced by one that keeps its start or its end, or both.
                let cut = old.index(old.startIndex, offsetBy: rng.next(below: n + 1))
                (a, b) = (0, n)
                s = rng.next(below: 2) == 0 ? String(old[..<cut]) + s : s + String(old[cut...])
                if rng.next(below: 3) == 0 { s = String(old[..<cut]) + s + String(old[cut...]) }
            default: break
            }
            let lo = cursor(old, at: min(a, b)), hi = cursor(old, at: max(a, b))
            var known = TextBuffer(old), walked = known
            guard let change = known.replaceKnownCharacters(lo, hi, with: s) else { continue }
            taken += 1
            let context = "seed \(seed) round \(round): \(old.debugDescription) [\(lo.offset), \(hi.offset)) <- \(s.debugDescription)"
            assertAgreesWithTheGeneralPath(change, known, walked: &walked, lo, hi, s, context)
        }
        XCTAssertGreaterThanOrEqual(taken, takenAtLeast, "seed \(seed)")
    }

    /// Typing and Backspace at the end (`replaceAtEnd`) and whole texts replaced
    /// (`replaceWhole`), taken on their own against the general path: short texts (spliced inline) and long ones, of one-byte and
    /// several-byte characters, combining marks, emoji with skin tones, with every hazard
    /// beside them; and whole texts holding regional indicators replaced (`setText`, which
    /// does not search the old text for them).
    func testTheEndOfTheTextAndWholeReplacementsAgreeWithTheGeneralPath() {
        let sets: [(pieces: Int, plain: [String], hazardEvery: Int, takenAtLeast: Int)] = [
            (10, Self.ascii, 0, 1_100), (10, Self.simple, 0, 1_100), (10, Self.combining, 0, 700),
            (10, Self.combining, 3, 350), (120, Self.simple, 0, 1_100), (120, Self.combining, 30, 550),
            (6, ["e", "\u{301}", "👍", "\u{1F3FD}", "🇫", "🇷", "\u{200D}"], 0, 100),
        ]
        for (k, set) in sets.enumerated() {
            var rng = SplitMix64(seed: 0xE4D + UInt64(k))
            var taken = 0
            for round in 0..<2_000 {
                let old = randomText(&rng, pieces: 1 + rng.next(below: set.pieces), hazardEvery: set.hazardEvery, plain: set.plain)
                let n = old.count
                // Typing, Backspace, or the whole text replaced (`replaceWhole`), by a text
                // as long as itself at most.
                let shape = rng.next(below: 3)
                let s = shape == 1 ? "" : randomText(&rng, pieces: 1 + rng.next(below: shape == 0 ? 3 : set.pieces), hazardEvery: set.hazardEvery, plain: set.plain)
                let lo = cursor(old, at: [n, n - 1, 0][shape]), hi = cursor(old, at: n)
                var atEnd = TextBuffer(old), walked = atEnd
                guard let change = shape == 2 ? atEnd.replaceWhole(lo, hi, with: s) : atEnd.replaceAtEnd(lo, hi, with: s) else { continue }
                taken += 1
                let context = "set \(k) round \(round): \(old.debugDescription) [\(lo.offset), \(hi.offset)) <- \(s.debugDescription)"
                assertAgreesWithTheGeneralPath(change, atEnd, walked: &walked, lo, hi, s, context)
            }
            XCTAssertGreaterThanOrEqual(taken, set.takenAtLeast, "set \(k)")
        }
        // Whole texts with regional indicators, replaced by texts that keep their start or end.
        var rng = SplitMix64(seed: 0xF1A6)
        var taken = 0
        for round in 0..<3_000 {
            let plain = ["a", "é", "日", "👍", "\u{301}", "🇫🇷", "🇩🇪", "🇫"]
            let old = randomText(&rng, pieces: rng.next(below: 12), hazardEvery: 0, plain: plain)
            let cut = old.index(old.startIndex, offsetBy: rng.next(below: old.count + 1))
            let middle = randomText(&rng, pieces: rng.next(below: 4), hazardEvery: 0, plain: ["a", "é", "日", "👍", "\u{1F3FD}"])
            let s = [String(old[..<cut]) + middle, middle + String(old[cut...]), middle][rng.next(below: 3)]
            let lo = cursor(old, at: 0), hi = cursor(old, at: old.count)
            var known = TextBuffer(old), walked = known
            guard let change = known.replaceKnownCharacters(lo, hi, with: s) else { continue }
            taken += 1
            let context = "round \(round): \(old.debugDescription) <- \(s.debugDescription)"
            assertAgreesWithTheGeneralPath(change, known, walked: &walked, lo, hi, s, context)
        }
        XCTAssertGreaterThanOrEqual(taken, 1_000)
    }

    /// Long texts, all plain ASCII or nearly: past the inline splice's 15 bytes, where the
    /// one-byte path appends, replaces the whole text or splices it.
    func testRandomEditsOfLongASCIITextsAgreeWithACountFromScratch() {
        checkRandomEdits(seed: 0xA5C1, rounds: 1_500, textPieces: 200, hazardEvery: 0)
        checkRandomEdits(seed: 0xA5C2, rounds: 1_500, textPieces: 200, hazardEvery: 40)
    }

    /// `rounds` texts of up to `textPieces` pieces, each edited four times at random places
    /// (typing at the end and replacing everything among them) with up to 3 pieces, or
    /// with a whole new text.
    func checkRandomEdits(seed: UInt64, rounds: Int, textPieces: Int, hazardEvery: Int, plain: [String] = ascii) {
        var rng = SplitMix64(seed: seed)
        for round in 0..<rounds {
            var buffer = TextBuffer(randomText(&rng, pieces: rng.next(below: textPieces), hazardEvery: hazardEvery, plain: plain))
            for step in 0..<4 {
                let old = buffer.text
                let n = old.count
                var a = rng.next(below: n + 1), b = rng.next(below: n + 1)
                switch rng.next(below: 4) {
                case 0: (a, b) = (n, n)  // typing at the end
                case 1: (a, b) = (0, n)  // replacing everything
                default: break
                }
                let lo = cursor(old, at: min(a, b)), hi = cursor(old, at: max(a, b))
                let s = randomText(&rng, pieces: rng.next(below: rng.next(below: 8) == 0 ? textPieces : 4), hazardEvery: hazardEvery, plain: plain)
                // The shortcuts of moving by a character give what the library's own walking gives.
                XCTAssertEqual(buffer.before(hi), hi.offset > 0 ? Cursor(old.index(before: hi.index), hi.offset - 1) : hi)
                XCTAssertEqual(buffer.after(lo), lo.offset < n ? Cursor(old.index(after: lo.index), lo.offset + 1) : lo)
                var walked = buffer
                let change = buffer.replace(lo, hi, with: s)
                let context = "seed \(seed) round \(round) step \(step): \(old.debugDescription) [\(lo.offset), \(hi.offset)) <- \(s.debugDescription)"
                // The shortcut taken for plain ASCII must change nothing the general path would not.
                XCTAssertEqual(walked.replaceWalkingClusters(lo, hi, with: s), change, context)
                XCTAssertEqual(walked, buffer, context)

                let expected = String(old[..<lo.index]) + s + String(old[hi.index...])
                XCTAssertEqual(Array(buffer.text.utf8), Array(expected.utf8), context)
                XCTAssertEqual(buffer.length, buffer.text.count, context)
                XCTAssertEqual(buffer.head, buffer.anchor, context)
                XCTAssertEqual(buffer.text[..<buffer.head.index].count, buffer.head.offset, context)
                XCTAssertGreaterThanOrEqual(buffer.text.utf8.distance(from: buffer.text.startIndex, to: buffer.head.index),
                                            old.utf8.distance(from: old.startIndex, to: lo.index) + s.utf8.count, context)

                // The change, applied to the old characters, gives the new ones, byte for byte.
                let oldChars = Array(old), newChars = Array(buffer.text)
                XCTAssertLessThanOrEqual(change.startOffset + change.removedCount, oldChars.count, context)
                guard change.startOffset + change.removedCount <= oldChars.count else { return }
                let prefix = String(oldChars[..<change.startOffset])
                XCTAssertEqual(change.startUTF8, prefix.utf8.count, context)
                XCTAssertEqual(Array(change.removed.utf8), Array(String(oldChars[change.startOffset..<change.startOffset + change.removedCount]).utf8), context)
                XCTAssertEqual(change.removed.count, change.removedCount, context)
                XCTAssertEqual(change.inserted.count, change.insertedCount, context)
                let rebuilt = prefix + change.inserted + String(oldChars[(change.startOffset + change.removedCount)...])
                XCTAssertEqual(Array(rebuilt.utf8), Array(buffer.text.utf8), context)
                XCTAssertEqual(change.windowInserted - change.windowRemoved, newChars.count - oldChars.count, context)
                // Trimmed: the first and last characters removed and inserted differ.
                if let r = change.removed.first, let i = change.inserted.first {
                    XCTAssertNotEqual(Array(String(r).utf8), Array(String(i).utf8), context)
                }
                if let r = change.removed.last, let i = change.inserted.last {
                    XCTAssertNotEqual(Array(String(r).utf8), Array(String(i).utf8), context)
                }
            }
        }
    }

    /// A fast path's change and buffer against the general path's, `walked` replaced by
    /// `replaceWalkingClusters`: the same change, its texts byte for byte, and the same
    /// buffer, its text byte for byte and counted right.
    func assertAgreesWithTheGeneralPath(_ change: CharacterChange, _ buffer: TextBuffer, walked: inout TextBuffer,
                                        _ lo: Cursor, _ hi: Cursor, _ s: String, _ context: String,
                                        file: StaticString = #filePath, line: UInt = #line) {
        let expected = walked.replaceWalkingClusters(lo, hi, with: s)
        XCTAssertEqual(change, expected, context, file: file, line: line)
        XCTAssertEqual(Array(change.removed.utf8), Array(expected.removed.utf8), context, file: file, line: line)
        XCTAssertEqual(Array(change.inserted.utf8), Array(expected.inserted.utf8), context, file: file, line: line)
        XCTAssertEqual(buffer, walked, context, file: file, line: line)
        XCTAssertEqual(Array(buffer.text.utf8), Array(walked.text.utf8), context, file: file, line: line)
        XCTAssertEqual(buffer.length, buffer.text.count, context, file: file, line: line)
    }
}
