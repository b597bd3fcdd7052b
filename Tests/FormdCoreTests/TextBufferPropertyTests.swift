@testable import FormdCore
import FormdTestSupport
import XCTest

/// `TextBuffer.replace` keeps length, caret and change right without recounting, and takes
/// shortcuts for plain ASCII (`TextBuffer+ASCIIEdits.swift`) that must agree with its
/// general path; here thousands of random edits over texts that mix plain ASCII with every
/// clustering hazard (CR LF, combining marks, prepended scalars, emoji modifiers, regional
/// indicators) are checked against a count from scratch, on short texts (the inline
/// splice) and long ones (the one-byte path's appends, whole replacements and splices).
final class TextBufferPropertyTests: XCTestCase {
    static let pieces = ["a", "b", " ", "x", "\r", "\n", "\u{301}", "é", "\u{600}", "👍", "\u{1F3FD}", "🇫", "🇷", "\u{200D}"]

    /// Mostly plain ASCII, as typed text is, so the fast paths are taken often; one piece
    /// in `hazardEvery` (0: none) from all of `pieces`.
    func randomText(_ rng: inout SplitMix64, pieces count: Int, hazardEvery: Int = 3) -> String {
        (0..<count).map { _ in
            hazardEvery > 0 && rng.next(below: hazardEvery) == 0 ? Self.pieces[rng.next(below: Self.pieces.count)] : Self.pieces[rng.next(below: 4)]
        }.joined()
    }

    func cursor(_ text: String, at offset: Int) -> Cursor {
        Cursor(text.index(text.startIndex, offsetBy: offset), offset)
    }

    func testRandomEditsAgreeWithACountFromScratch() {
        checkRandomEdits(seed: 0xF0_4D, rounds: 4_000, textPieces: 8, hazardEvery: 3)
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
    func checkRandomEdits(seed: UInt64, rounds: Int, textPieces: Int, hazardEvery: Int) {
        var rng = SplitMix64(seed: seed)
        for round in 0..<rounds {
            var buffer = TextBuffer(randomText(&rng, pieces: rng.next(below: textPieces), hazardEvery: hazardEvery))
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
                let s = randomText(&rng, pieces: rng.next(below: rng.next(below: 8) == 0 ? textPieces : 4), hazardEvery: hazardEvery)
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
}
