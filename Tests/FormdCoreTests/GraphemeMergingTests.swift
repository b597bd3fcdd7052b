import XCTest
@testable import FormdCore

/// Typed pieces that join the character before them: a combining accent after "e", a
/// skin tone after 👍, a zero-width joiner sequence, a regional indicator after another.
/// The edit of `textChanged` names whole characters, so it replaces the old character
/// with the merged one, and the length counts what a person sees.
final class GraphemeMergingTests: XCTestCase {
    private static let applied = CommandResult.edit(applied: true, reason: nil)

    private func type(_ h: inout FormHarness, _ s: String, giving text: String, length: Int, edit: TextEdit, caret: Int,
                      display: String? = nil, masked: Bool = false, file: StaticString = #filePath, line: UInt = #line) {
        h.send(.insertText(field: nil, text: s), Self.applied,
               events: [.textChanged(field: "a", text: masked ? nil : text, length: length, edit: edit, selection: .caret(caret))],
               state: { $0["a"].holds(text, display: display, length: length, selection: .caret(caret)) }, file: file, line: line)
    }

    private func harness(_ encoding: PositionEncoding, _ set: @escaping (inout FieldOptions) -> Void = { _ in }) -> FormHarness {
        var h = FormHarness(fields: [field("a", [], set)], encoding: encoding)
        h.focus("a")
        return h
    }

    func testACombiningAccentTypedAfterEReplacesEWithÉAndKeepsTheLength() {
        // Where the caret is after "cafe\u{301}", in each encoding.
        for (encoding, caret) in [(PositionEncoding.character, 4), (.utf8, 6), (.utf16, 5), (.utf32, 5)] {
            var h = harness(encoding)
            type(&h, "cafe", giving: "cafe", length: 4, edit: TextEdit(0, 0, "cafe"), caret: 4)
            type(&h, "\u{301}", giving: "cafe\u{301}", length: 4, edit: TextEdit(3, 4, "e\u{301}"), caret: caret)
            // Backspace takes the whole character.
            h.send(.delete(field: nil), Self.applied,
                   events: [.deletePressed(field: "a", textBefore: "cafe\u{301}"),
                            .textChanged(field: "a", text: "caf", length: 3, edit: TextEdit(3, caret, ""), selection: .caret(3))],
                   state: { $0["a"].holds("caf", length: 3, selection: .caret(3)) })
        }
    }

    func testAnAccentThatMergesDoesNotCountAgainstMaxLength() {
        var h = harness(.character) { $0.maxLength = 4; $0.text = "cafe" }
        type(&h, "\u{301}", giving: "cafe\u{301}", length: 4, edit: TextEdit(3, 4, "e\u{301}"), caret: 4)
        h.send(.insertText(field: nil, text: "s"), .edit(applied: false, reason: .maxLength),
               events: [.changeRejected(field: "a", reason: .maxLength)])
    }

    func testAMaskedFieldReportsTheMergeAsOneBulletReplacingAnother() {
        for (encoding, bullet) in [(PositionEncoding.character, 1), (.utf8, 3), (.utf16, 1), (.utf32, 1)] {
            var h = harness(encoding) { $0.secure = true }
            type(&h, "e", giving: "e", length: 1, edit: TextEdit(0, 0, "•"), caret: bullet, display: "•", masked: true)
            type(&h, "\u{301}", giving: "e\u{301}", length: 1, edit: TextEdit(0, bullet, "•"), caret: bullet, display: "•", masked: true)
        }
    }

    func testASkinToneJoinsTheEmojiBeforeIt() {
        var h = harness(.utf16)
        type(&h, "👍", giving: "👍", length: 1, edit: TextEdit(0, 0, "👍"), caret: 2)
        type(&h, "🏽", giving: "👍🏽", length: 1, edit: TextEdit(0, 2, "👍🏽"), caret: 4)
    }

    func testAZeroWidthJoinerSequenceTypedPieceByPieceIsOneCharacter() {
        var h = harness(.character)
        type(&h, "👩", giving: "👩", length: 1, edit: TextEdit(0, 0, "👩"), caret: 1)
        type(&h, "\u{200D}", giving: "👩\u{200D}", length: 1, edit: TextEdit(0, 1, "👩\u{200D}"), caret: 1)
        type(&h, "👧", giving: "👩\u{200D}👧", length: 1, edit: TextEdit(0, 1, "👩\u{200D}👧"), caret: 1)
    }

    /// 🇫🇷 typed as its two regional indicators, in two inserts, ends as one character;
    /// a second flag after it is a second character.
    func testRegionalIndicatorsTypedOneByOnePairIntoFlags() {
        for (encoding, u) in [(PositionEncoding.character, 0), (.utf8, 4), (.utf16, 2), (.utf32, 1)] {
            // Units of one regional indicator (0: count characters instead).
            func p(_ indicators: Int, characters: Int) -> Int { u == 0 ? characters : indicators * u }
            var h = harness(encoding)
            type(&h, "🇫", giving: "🇫", length: 1, edit: TextEdit(0, 0, "🇫"), caret: p(1, characters: 1))
            type(&h, "🇷", giving: "🇫🇷", length: 1, edit: TextEdit(0, p(1, characters: 1), "🇫🇷"), caret: p(2, characters: 1))
            type(&h, "🇩", giving: "🇫🇷🇩", length: 2, edit: TextEdit(p(2, characters: 1), p(2, characters: 1), "🇩"),
                 caret: p(3, characters: 2))
            type(&h, "🇪", giving: "🇫🇷🇩🇪", length: 2, edit: TextEdit(p(2, characters: 1), p(3, characters: 2), "🇩🇪"),
                 caret: p(4, characters: 2))
            h.send(.delete(field: nil), Self.applied,
                   events: [.deletePressed(field: "a", textBefore: "🇫🇷🇩🇪"),
                            .textChanged(field: "a", text: "🇫🇷", length: 1, edit: TextEdit(p(2, characters: 1), p(4, characters: 2), ""),
                                         selection: .caret(p(2, characters: 1)))],
                   state: { $0["a"].holds("🇫🇷", length: 1, selection: .caret(p(2, characters: 1))) })
        }
    }

    /// An indicator typed before a flag pairs with that flag's first half: the pairs
    /// re-form from the start of the run, and the caret lands on the nearest boundary
    /// after what was typed.
    func testARegionalIndicatorTypedBeforeAFlagRepairsTheRun() {
        var h = harness(.character) { $0.text = "🇫🇷" }
        h.send(.moveCaret(field: nil, to: .start, extend: false), .selection(.caret(0)),
               events: [.selectionChanged(field: "a", selection: .caret(0))], state: { $0["a"].selection = .caret(0) })
        type(&h, "🇩", giving: "🇩🇫🇷", length: 2, edit: TextEdit(0, 1, "🇩🇫🇷"), caret: 1)
    }
}
