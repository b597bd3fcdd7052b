import FormdTestSupport
import XCTest
@testable import FormdCore

/// Positions count in the client's encoding (`character`, `utf-8`, `utf-16`, `utf-32`):
/// in commands, results, `textChanged` edits and selections, `selectionChanged`,
/// `fieldChanged` and `getState`. A position inside a character is an error naming it.
/// A masked field counts over its display, one `•` per character (three bytes in UTF-8).
///
/// One scenario runs in every encoding over a text that mixes ASCII, a composed `é`
/// (U+00E9), a decomposed one (e + U+0301), CJK and an emoji with a skin tone; the tables
/// give the character boundaries of each text in each encoding.
final class PositionEncodingTests: XCTestCase {
    /// a · é · e+◌́ · 漢 · 👍🏽 · b
    private static let text = "a\u{E9}e\u{301}漢👍🏽b"

    private struct Table {
        var encoding: PositionEncoding
        /// Units per bullet of a masked display.
        var bullet: Int
        /// Boundaries of `text`.
        var old: [Int]
        /// Boundaries of "aéü😀👍🏽b", after typing "ü😀" over "e+◌́漢".
        var new: [Int]
        /// Boundaries of "aéü👍🏽b", after a Backspace on "😀".
        var last: [Int]
        /// Every position inside a character of `text`.
        var inside: [Int]
        /// Where the caret is after "a👍🏽" in the revealed password "a👍🏽漢👍🏽b".
        var revealedCaret: Int
        /// Whether that caret moves when masking is switched: it is `revealedCaret` over
        /// the text and two bullets (`2 × bullet`) over the display, and `fieldChanged`
        /// reports the selection only where the two differ.
        var maskingSwitchMovesCaret: Bool
    }

    func testCharacterPositions() {
        scenario(Table(encoding: .character, bullet: 1, old: [0, 1, 2, 3, 4, 5, 6], new: [0, 1, 2, 3, 4, 5, 6],
                       last: [0, 1, 2, 3, 4, 5], inside: [], revealedCaret: 2,
                       maskingSwitchMovesCaret: false))   // 2 over the text, 2 over the display
    }

    func testUTF8Positions() {
        scenario(Table(encoding: .utf8, bullet: 3, old: [0, 1, 3, 6, 9, 17, 18], new: [0, 1, 3, 5, 9, 17, 18],
                       last: [0, 1, 3, 5, 13, 14], inside: [2, 4, 5, 7, 8, 10, 13, 16], revealedCaret: 9,
                       maskingSwitchMovesCaret: true))    // 9 over the text, 6 over the display
    }

    func testUTF16Positions() {
        scenario(Table(encoding: .utf16, bullet: 1, old: [0, 1, 2, 4, 5, 9, 10], new: [0, 1, 2, 3, 5, 9, 10],
                       last: [0, 1, 2, 3, 7, 8], inside: [3, 6, 7, 8], revealedCaret: 5,
                       maskingSwitchMovesCaret: true))    // 5 over the text, 2 over the display
    }

    func testUTF32Positions() {
        scenario(Table(encoding: .utf32, bullet: 1, old: [0, 1, 2, 4, 5, 7, 8], new: [0, 1, 2, 3, 4, 6, 7],
                       last: [0, 1, 2, 3, 5, 6], inside: [3, 6], revealedCaret: 3,
                       maskingSwitchMovesCaret: true))    // 3 over the text, 2 over the display
    }

    private func scenario(_ t: Table, file: StaticString = #filePath, line: UInt = #line) {
        let text = Self.text, w = t.bullet, enc = t.encoding.rawValue
        var h = FormHarness(fields: [field("t") { $0.text = text }, field("pw", ["password"]) { $0.text = text }],
                            encoding: t.encoding, file: file, line: line)
        let passwordAttributes = h.passwordAttributes
        XCTAssertEqual(h.getState(includeSecrets: false, file: file, line: line),
                       FormSnapshot(form: "default", seq: 1, firstResponder: nil, fields: [
                           .expect("t", text: text, display: text, length: 6, selection: .caret(t.old[6])),
                           .expect("pw", configuration: ["password"], attributes: passwordAttributes,
                                   text: nil, display: "••••••", length: 6, selection: .caret(6 * w)),
                       ]), file: file, line: line)
        h.focus("t", file: file, line: line)

        // select, backwards, then extended: the reported range is in the client's units.
        h.send(.select(field: nil, start: t.old[4], end: t.old[1]), .selection(.backward(t.old[1], t.old[4])),
               events: [.selectionChanged(field: "t", selection: .backward(t.old[1], t.old[4]))],
               state: { $0["t"].selection = .backward(t.old[1], t.old[4]) }, file: file, line: line)
        h.send(.moveCaret(field: nil, to: .right, extend: true), .selection(.backward(t.old[2], t.old[4])),
               events: [.selectionChanged(field: "t", selection: .backward(t.old[2], t.old[4]))],
               state: { $0["t"].selection = .backward(t.old[2], t.old[4]) }, file: file, line: line)

        // Inside a character, or past the end: an error that names the position.
        for p in t.inside {
            let inside = FormError.invalidParams("position \(p) falls inside a character (positions are in \(enc) units)")
            h.sendFailing(.select(field: nil, start: p, end: t.old[6]), throws: inside, file: file, line: line)
            h.sendFailing(.select(field: nil, start: 0, end: p), throws: inside, file: file, line: line)
        }
        h.sendFailing(.select(field: nil, start: 0, end: t.old[6] + 1),
                      throws: .invalidParams("position \(t.old[6] + 1) is outside the field's text (0...\(t.old[6]) in \(enc))"),
                      file: file, line: line)

        // Typing over the selection: the edit is over the old text, the caret after the insert.
        h.send(.insertText(field: nil, text: "ü😀"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "t", text: "aéü😀👍🏽b", length: 6, edit: TextEdit(t.old[2], t.old[4], "ü😀"),
                                     selection: .caret(t.new[4]))],
               state: { $0["t"].holds("aéü😀👍🏽b", length: 6, selection: .caret(t.new[4])) }, file: file, line: line)
        h.send(.delete(field: nil), .edit(applied: true, reason: nil),
               events: [.deletePressed(field: "t", textBefore: "aéü😀👍🏽b"),
                        .textChanged(field: "t", text: "aéü👍🏽b", length: 5, edit: TextEdit(t.new[3], t.new[4], ""),
                                     selection: .caret(t.new[3]))],
               state: { $0["t"].holds("aéü👍🏽b", length: 5, selection: .caret(t.new[3])) }, file: file, line: line)
        h.send(.moveCaret(field: nil, to: .right, extend: true), .selection(TextRange(t.last[3], t.last[4])),
               events: [.selectionChanged(field: "t", selection: TextRange(t.last[3], t.last[4]))],
               state: { $0["t"].selection = TextRange(t.last[3], t.last[4]) }, file: file, line: line)
        h.send(.editAction(field: nil, action: .copy, text: nil), .editAction(performed: true, text: "👍🏽", reason: nil), events: [],
               file: file, line: line)
        h.send(.moveCaret(field: nil, to: .end, extend: false), .selection(.caret(t.last[5])),
               events: [.selectionChanged(field: "t", selection: .caret(t.last[5]))],
               state: { $0["t"].selection = .caret(t.last[5]) }, file: file, line: line)

        // The masked field counts bullets: a position between bullets is fine whatever lies
        // under them, one inside a bullet's bytes is not.
        h.send(.select(field: "pw", start: w, end: 3 * w), .selection(TextRange(w, 3 * w)),
               events: [.selectionChanged(field: "pw", selection: TextRange(w, 3 * w))],
               state: { $0["pw"].selection = TextRange(w, 3 * w) }, file: file, line: line)
        if w > 1 {
            for p in [1, 2, 4] {
                h.sendFailing(.select(field: "pw", start: p, end: p),
                              throws: .invalidParams("position \(p) falls inside a character (positions are in \(enc) units)"),
                              file: file, line: line)
            }
        }
        h.sendFailing(.select(field: "pw", start: 0, end: 6 * w + 1),
                      throws: .invalidParams("position \(6 * w + 1) is outside the field's text (0...\(6 * w) in \(enc))"),
                      file: file, line: line)
        // Masked: the edit replaces the whole display, six old bullets by five new ones.
        h.send(.insertText(field: "pw", text: "👍🏽"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "pw", text: nil, length: 5, edit: TextEdit(0, 6 * w, "•••••"), selection: .caret(2 * w))],
               state: { $0["pw"].holds("a👍🏽漢👍🏽b", display: "•••••", length: 5, selection: .caret(2 * w)) }, file: file, line: line)
        // Unmasking restates the selection in the text's own units, masking again in bullets,
        // each only where that moves it.
        let moved: TextRange? = t.maskingSwitchMovesCaret ? .caret(t.revealedCaret) : nil
        let masked: TextRange? = t.maskingSwitchMovesCaret ? .caret(2 * w) : nil
        h.send(.setRevealed(field: "pw", true),
               events: [.fieldChanged(field: "pw", changes: FieldChanges(options: options { $0.revealed = true }, display: "a👍🏽漢👍🏽b",
                                                                          text: "a👍🏽漢👍🏽b", selection: moved))],
               state: {
                   $0["pw"].attributes.revealed = true; $0["pw"].display = "a👍🏽漢👍🏽b"; $0["pw"].selection = .caret(t.revealedCaret)
               },
               file: file, line: line)
        h.send(.setRevealed(field: "pw", false),
               events: [.fieldChanged(field: "pw", changes: FieldChanges(options: options { $0.revealed = false }, display: "•••••",
                                                                          text: nil, selection: masked))],
               state: { $0["pw"].attributes.revealed = false; $0["pw"].display = "•••••"; $0["pw"].selection = .caret(2 * w) },
               file: file, line: line)

        var revealedAttributes = passwordAttributes
        revealedAttributes.revealed = false
        XCTAssertEqual(h.getState(includeSecrets: false, file: file, line: line),
                       FormSnapshot(form: "default", seq: h.nextSeq() - 1, firstResponder: "t", fields: [
                           .expect("t", text: "aéü👍🏽b", display: "aéü👍🏽b", length: 5, selection: .caret(t.last[5]),
                                   isFirstResponder: true, dirty: true, visited: true),
                           .expect("pw", configuration: ["password"], attributes: revealedAttributes,
                                   text: nil, display: "•••••", length: 5, selection: .caret(2 * w), dirty: true),
                       ]), file: file, line: line)
    }

    /// Each client reads the same state in its own units.
    /// UTF-16 and UTF-32 positions, counted from the UTF-8 bytes, are the standard library's
    /// at every scalar boundary of random texts, short and long, with scalars of every length.
    func testUTF16AndUTF32CountsFromTheBytesAreTheStandardLibrarys() {
        var rng = SplitMix64(seed: 16)
        let pieces = ["a", "\u{7F}", "\u{80}", "é", "e\u{301}", "\u{7FF}", "\u{800}", "漢", "\u{FFFF}", "\u{10000}", "😀", "👍🏽",
                      "🇫🇷", "\r\n", "\u{10FFFF}"]
        for round in 0..<200 {
            let text = (0..<rng.next(below: round < 100 ? 12 : 200)).map { _ in pieces[rng.next(below: pieces.count)] }.joined()
            var i = text.startIndex
            while true {
                XCTAssertEqual(PositionEncoding.utf16.units(in: text, before: i), text.utf16.distance(from: text.startIndex, to: i), text)
                XCTAssertEqual(PositionEncoding.utf32.units(in: text, before: i), text.unicodeScalars.distance(from: text.startIndex, to: i), text)
                if i == text.endIndex { break }
                i = text.unicodeScalars.index(after: i)
            }
        }
    }

    func testTheSameStateReadsInEachClientsEncoding() {
        var h = FormHarness(fields: [field("a") { $0.text = "e\u{301}👍🏽漢" },
                                     field("pw", ["password"]) { $0.text = "e\u{301}👍🏽漢" }])
        let expected: [(PositionEncoding, Int, Int)] = [(.character, 3, 3), (.utf8, 14, 9), (.utf16, 7, 3), (.utf32, 5, 3)]
        for (encoding, caret, bullets) in expected {
            h.encoding = encoding
            XCTAssertEqual(h.getState(includeSecrets: true)?["a"].selection, .caret(caret), "\(encoding)")
            XCTAssertEqual(h.getState(includeSecrets: true)?["pw"].selection, .caret(bullets), "\(encoding)")
        }
        // A command in one encoding, then the model restated for the next client.
        h.encoding = .utf16
        h.send(.select(field: "a", start: 2, end: 6), .selection(TextRange(2, 6)),
               events: [.selectionChanged(field: "a", selection: TextRange(2, 6))],
               state: { $0["a"].selection = TextRange(2, 6); $0["pw"].selection = .caret(3) })
        h.encoding = .utf8
        h.send(.moveCaret(field: "a", to: .right, extend: true), .selection(TextRange(3, 14)),
               events: [.selectionChanged(field: "a", selection: TextRange(3, 14))],
               state: { $0["a"].selection = TextRange(3, 14); $0["pw"].selection = .caret(9) })
    }

    /// The edit of `textChanged` always lies on character boundaries of the old text.
    func testEditsOfTextChangedAreInTheClientsUnits() {
        var h = FormHarness(fields: [field("a") { $0.text = "漢👍🏽" }], encoding: .utf16)
        h.send(.select(field: "a", start: 1, end: 1), .selection(.caret(1)),
               events: [.selectionChanged(field: "a", selection: .caret(1))], state: { $0["a"].selection = .caret(1) })
        h.send(.insertText(field: "a", text: "e\u{301}"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: "漢e\u{301}👍🏽", length: 3, edit: TextEdit(1, 1, "e\u{301}"), selection: .caret(3))],
               state: { $0["a"].holds("漢e\u{301}👍🏽", length: 3, selection: .caret(3)) })
        h.send(.delete(field: "a", direction: .forward), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: "漢e\u{301}", length: 2, edit: TextEdit(3, 7, ""), selection: .caret(3))],
               state: { $0["a"].holds("漢e\u{301}", length: 2, selection: .caret(3)) })
        h.send(.setText(field: "a", text: "漢e\u{301}!"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: "漢e\u{301}!", length: 3, edit: TextEdit(3, 3, "!"), selection: .caret(4))],
               state: { $0["a"].holds("漢e\u{301}!", length: 3, selection: .caret(4)) })
    }
}
