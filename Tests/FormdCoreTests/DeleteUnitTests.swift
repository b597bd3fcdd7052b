import XCTest
@testable import FormdCore

/// `delete {field?, direction?, unit?}`: the selection if there is one, else one unit in
/// that direction. Backward deletes are Backspace (`deletePressed` first, `deleteOnEmpty`
/// on an empty field); forward deletes are the Delete key and press nothing.
final class DeleteUnitTests: XCTestCase {
    private static let applied = CommandResult.edit(applied: true, reason: nil)

    private func caretAt(_ h: inout FormHarness, _ id: String, _ p: Int, file: StaticString = #filePath, line: UInt = #line) {
        h.send(.select(field: id, start: p, end: p), .selection(.caret(p)),
               events: [.selectionChanged(field: id, selection: .caret(p))], state: { $0[id].selection = .caret(p) },
               file: file, line: line)
    }

    // MARK: character

    func testCharacterBackwardAndForwardAroundTheCaret() {
        var h = FormHarness(fields: [field("a") { $0.text = "x👍🏽ab" }])
        caretAt(&h, "a", 2)
        h.send(.delete(field: "a", direction: .backward, unit: .character), Self.applied,
               events: [.deletePressed(field: "a", textBefore: "x👍🏽ab"),
                        .textChanged(field: "a", text: "xab", length: 3, edit: TextEdit(1, 2, ""), selection: .caret(1))],
               state: { $0["a"].holds("xab", length: 3, selection: .caret(1)) })
        h.send(.delete(field: "a", direction: .forward, unit: .character), Self.applied,
               events: [.textChanged(field: "a", text: "xb", length: 2, edit: TextEdit(1, 2, ""), selection: .caret(1))],
               state: { $0["a"].holds("xb", length: 2, selection: .caret(1)) })
    }

    func testForwardDeleteRemovesWholeCharacters() {
        var h = FormHarness(fields: [field("a") { $0.text = "e\u{301}👍🏽🇫🇷" }])
        caretAt(&h, "a", 0)
        h.send(.delete(field: "a", direction: .forward), Self.applied,
               events: [.textChanged(field: "a", text: "👍🏽🇫🇷", length: 2, edit: TextEdit(0, 1, ""), selection: .caret(0))],
               state: { $0["a"].holds("👍🏽🇫🇷", length: 2, selection: .caret(0)) })
        h.send(.delete(field: "a", direction: .forward), Self.applied,
               events: [.textChanged(field: "a", text: "🇫🇷", length: 1, edit: TextEdit(0, 1, ""), selection: .caret(0))],
               state: { $0["a"].holds("🇫🇷", length: 1, selection: .caret(0)) })
        h.send(.delete(field: "a", direction: .forward), Self.applied,
               events: [.textChanged(field: "a", text: "", length: 0, edit: TextEdit(0, 1, ""), selection: .caret(0))],
               state: { $0["a"].holds("", length: 0, selection: .caret(0), dirty: true) })
    }

    // MARK: word

    func testWordBackwardDeletesToTheStartOfTheWordThenAcrossSpaceAndPunctuation() {
        var h = FormHarness(fields: [field("a") { $0.text = "hello big world" }])
        h.send(.delete(field: "a", unit: .word), Self.applied,
               events: [.deletePressed(field: "a", textBefore: "hello big world"),
                        .textChanged(field: "a", text: "hello big ", length: 10, edit: TextEdit(10, 15, ""), selection: .caret(10))],
               state: { $0["a"].holds("hello big ", length: 10, selection: .caret(10)) })
        // From just after a space: the space and the word before it.
        h.send(.delete(field: "a", unit: .word), Self.applied,
               events: [.deletePressed(field: "a", textBefore: "hello big "),
                        .textChanged(field: "a", text: "hello ", length: 6, edit: TextEdit(6, 10, ""), selection: .caret(6))],
               state: { $0["a"].holds("hello ", length: 6, selection: .caret(6)) })
        h.send(.delete(field: "a", unit: .word), Self.applied,
               events: [.deletePressed(field: "a", textBefore: "hello "),
                        .textChanged(field: "a", text: "", length: 0, edit: TextEdit(0, 6, ""), selection: .caret(0))],
               state: { $0["a"].holds("", length: 0, selection: .caret(0)) })
    }

    /// A word is a run of letters, digits and underscores; anything else separates words.
    func testWordsAreLettersDigitsAndUnderscores() {
        var h = FormHarness(fields: [field("a") { $0.text = "foo, bar_baz42 qux" }])
        caretAt(&h, "a", 11)   // foo, bar_ba|z42 qux
        h.send(.delete(field: "a", unit: .word), Self.applied,
               events: [.deletePressed(field: "a", textBefore: "foo, bar_baz42 qux"),
                        .textChanged(field: "a", text: "foo, z42 qux", length: 12, edit: TextEdit(5, 11, ""), selection: .caret(5))],
               state: { $0["a"].holds("foo, z42 qux", length: 12, selection: .caret(5)) })
        h.send(.delete(field: "a", unit: .word), Self.applied,
               events: [.deletePressed(field: "a", textBefore: "foo, z42 qux"),
                        .textChanged(field: "a", text: "z42 qux", length: 7, edit: TextEdit(0, 5, ""), selection: .caret(0))],
               state: { $0["a"].holds("z42 qux", length: 7, selection: .caret(0)) })
        h.send(.delete(field: "a", direction: .forward, unit: .word), Self.applied,
               events: [.textChanged(field: "a", text: " qux", length: 4, edit: TextEdit(0, 3, ""), selection: .caret(0))],
               state: { $0["a"].holds(" qux", length: 4, selection: .caret(0)) })
        // Forward from before a space: the space and the word after it.
        h.send(.delete(field: "a", direction: .forward, unit: .word), Self.applied,
               events: [.textChanged(field: "a", text: "", length: 0, edit: TextEdit(0, 4, ""), selection: .caret(0))],
               state: { $0["a"].holds("", length: 0, selection: .caret(0)) })
    }

    func testWordsInCJKAndAroundEmoji() {
        var h = FormHarness(fields: [field("a") { $0.text = "東京 タワー!👍🏽" }])
        h.send(.delete(field: "a", unit: .word), Self.applied,
               events: [.deletePressed(field: "a", textBefore: "東京 タワー!👍🏽"),
                        .textChanged(field: "a", text: "東京 ", length: 3, edit: TextEdit(3, 8, ""), selection: .caret(3))],
               state: { $0["a"].holds("東京 ", length: 3, selection: .caret(3)) })
        caretAt(&h, "a", 0)
        h.send(.delete(field: "a", direction: .forward, unit: .word), Self.applied,
               events: [.textChanged(field: "a", text: " ", length: 1, edit: TextEdit(0, 2, ""), selection: .caret(0))],
               state: { $0["a"].holds(" ", length: 1, selection: .caret(0)) })
    }

    // MARK: line

    func testLineBackwardDeletesToTheLineStartAndAtALineStartJoinsTheLines() {
        var h = FormHarness(fields: [field("a") { $0.text = "line1\nline2" }])
        caretAt(&h, "a", 9)   // line1\nlin|e2
        h.send(.delete(field: "a", unit: .line), Self.applied,
               events: [.deletePressed(field: "a", textBefore: "line1\nline2"),
                        .textChanged(field: "a", text: "line1\ne2", length: 8, edit: TextEdit(6, 9, ""), selection: .caret(6))],
               state: { $0["a"].holds("line1\ne2", length: 8, selection: .caret(6)) })
        h.send(.delete(field: "a", unit: .line), Self.applied,
               events: [.deletePressed(field: "a", textBefore: "line1\ne2"),
                        .textChanged(field: "a", text: "line1e2", length: 7, edit: TextEdit(5, 6, ""), selection: .caret(5))],
               state: { $0["a"].holds("line1e2", length: 7, selection: .caret(5)) })
        h.send(.delete(field: "a", unit: .line), Self.applied,
               events: [.deletePressed(field: "a", textBefore: "line1e2"),
                        .textChanged(field: "a", text: "e2", length: 2, edit: TextEdit(0, 5, ""), selection: .caret(0))],
               state: { $0["a"].holds("e2", length: 2, selection: .caret(0)) })
    }

    func testLineForwardDeletesToTheLineEndAndAtALineEndJoinsTheLines() {
        var h = FormHarness(fields: [field("a") { $0.text = "line1\nline2" }])
        caretAt(&h, "a", 2)
        h.send(.delete(field: "a", direction: .forward, unit: .line), Self.applied,
               events: [.textChanged(field: "a", text: "li\nline2", length: 8, edit: TextEdit(2, 5, ""), selection: .caret(2))],
               state: { $0["a"].holds("li\nline2", length: 8, selection: .caret(2)) })
        h.send(.delete(field: "a", direction: .forward, unit: .line), Self.applied,
               events: [.textChanged(field: "a", text: "liline2", length: 7, edit: TextEdit(2, 3, ""), selection: .caret(2))],
               state: { $0["a"].holds("liline2", length: 7, selection: .caret(2)) })
        h.send(.delete(field: "a", direction: .forward, unit: .line), Self.applied,
               events: [.textChanged(field: "a", text: "li", length: 2, edit: TextEdit(2, 7, ""), selection: .caret(2))],
               state: { $0["a"].holds("li", length: 2, selection: .caret(2)) })
    }

    /// A line ends at any newline character (`Character.isNewline`), not only "\n":
    /// "\r\n" (one character), "\r", NEL, U+2028, U+2029. Backspace by line from the end
    /// of "one⏎two" takes "two" only; again, the newline alone. Forward from the start
    /// takes "one" only; again, the newline alone.
    func testALineEndsAtAnyNewlineCharacter() {
        for newline in ["\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}", "\u{0B}", "\u{0C}"] {
            let text = "one" + newline + "two"          // o n e ⏎ t w o: seven characters
            var h = FormHarness(fields: [field("a") { $0.text = text }, field("b") { $0.text = text }])
            h.send(.delete(field: "a", unit: .line), Self.applied,
                   events: [.deletePressed(field: "a", textBefore: text),
                            .textChanged(field: "a", text: "one" + newline, length: 4, edit: TextEdit(4, 7, ""), selection: .caret(4))],
                   state: { $0["a"].holds("one" + newline, length: 4, selection: .caret(4)) })
            h.send(.delete(field: "a", unit: .line), Self.applied,
                   events: [.deletePressed(field: "a", textBefore: "one" + newline),
                            .textChanged(field: "a", text: "one", length: 3, edit: TextEdit(3, 4, ""), selection: .caret(3))],
                   state: { $0["a"].holds("one", length: 3, selection: .caret(3)) })
            caretAt(&h, "b", 0)
            h.send(.delete(field: "b", direction: .forward, unit: .line), Self.applied,
                   events: [.textChanged(field: "b", text: newline + "two", length: 4, edit: TextEdit(0, 3, ""), selection: .caret(0))],
                   state: { $0["b"].holds(newline + "two", length: 4, selection: .caret(0)) })
            h.send(.delete(field: "b", direction: .forward, unit: .line), Self.applied,
                   events: [.textChanged(field: "b", text: "two", length: 3, edit: TextEdit(0, 1, ""), selection: .caret(0))],
                   state: { $0["b"].holds("two", length: 3, selection: .caret(0)) })
        }
    }

    /// Positions stay in the client's units: "\r\n" is two bytes, U+2028 three.
    func testALineDeleteAcrossAMultiByteNewlineCountsInTheClientsUnits() {
        for (newline, utf8End) in [("\r\n", 8), ("\u{2028}", 9)] {
            var h = FormHarness(fields: [field("a") { $0.text = "one" + newline + "two" }], encoding: .utf8)
            let newlineEnd = utf8End - 3
            h.send(.delete(field: "a", unit: .line), Self.applied,
                   events: [.deletePressed(field: "a", textBefore: "one" + newline + "two"),
                            .textChanged(field: "a", text: "one" + newline, length: 4, edit: TextEdit(newlineEnd, utf8End, ""),
                                         selection: .caret(newlineEnd))],
                   state: { $0["a"].holds("one" + newline, length: 4, selection: .caret(newlineEnd)) })
            h.send(.delete(field: "a", unit: .line), Self.applied,
                   events: [.deletePressed(field: "a", textBefore: "one" + newline),
                            .textChanged(field: "a", text: "one", length: 3, edit: TextEdit(3, newlineEnd, ""), selection: .caret(3))],
                   state: { $0["a"].holds("one", length: 3, selection: .caret(3)) })
        }
    }

    // MARK: selection

    func testASelectionIsDeletedWhateverTheUnitAndOnlyBackspacePressesAKey() {
        var h = FormHarness(fields: [field("a") { $0.text = "hello world" }])
        h.send(.select(field: "a", start: 11, end: 7), .selection(.backward(7, 11)),
               events: [.selectionChanged(field: "a", selection: .backward(7, 11))], state: { $0["a"].selection = .backward(7, 11) })
        h.send(.delete(field: "a", direction: .backward, unit: .line), Self.applied,
               events: [.deletePressed(field: "a", textBefore: "hello world"),
                        .textChanged(field: "a", text: "hello w", length: 7, edit: TextEdit(7, 11, ""), selection: .caret(7))],
               state: { $0["a"].holds("hello w", length: 7, selection: .caret(7)) })
        h.send(.select(field: "a", start: 1, end: 3), .selection(TextRange(1, 3)),
               events: [.selectionChanged(field: "a", selection: TextRange(1, 3))], state: { $0["a"].selection = TextRange(1, 3) })
        h.send(.delete(field: "a", direction: .forward, unit: .word), Self.applied,
               events: [.textChanged(field: "a", text: "hlo w", length: 5, edit: TextEdit(1, 3, ""), selection: .caret(1))],
               state: { $0["a"].holds("hlo w", length: 5, selection: .caret(1)) })
    }

    // MARK: boundaries

    func testBackspaceAtTheStartIsRefusedAtTheBoundaryForEveryUnit() {
        var h = FormHarness(fields: [field("a"), field("b") { $0.text = "ab"; $0.deleteOnEmpty = .focusPrevious }])
        h.focus("b")
        caretAt(&h, "b", 0)
        for unit in TextUnit.allCases {
            // The field is not empty, so deleteOnEmpty does not step back.
            h.send(.delete(field: nil, direction: .backward, unit: unit), .edit(applied: false, reason: .boundary),
                   events: [.deletePressed(field: "b", textBefore: "ab"), .changeRejected(field: "b", reason: .boundary)])
        }
    }

    func testForwardDeleteAtTheEndIsRefusedAtTheBoundaryForEveryUnit() {
        var h = FormHarness(fields: [field("a") { $0.text = "ab" }])
        for unit in TextUnit.allCases {
            h.send(.delete(field: "a", direction: .forward, unit: unit), .edit(applied: false, reason: .boundary),
                   events: [.changeRejected(field: "a", reason: .boundary)])
        }
    }

    /// Decision: Delete (forward) on an empty field is refused as empty, presses no key and
    /// never steps back: `deleteOnEmpty` is about Backspace.
    func testForwardDeleteOnAnEmptyFieldIsRefusedAndDoesNotStepBack() {
        var h = FormHarness(fields: [field("a"), field("b") { $0.deleteOnEmpty = .focusPrevious }])
        h.focus("b")
        for unit in TextUnit.allCases {
            h.send(.delete(field: nil, direction: .forward, unit: unit), .edit(applied: false, reason: .empty),
                   events: [.changeRejected(field: "b", reason: .empty)])
        }
    }

    func testBackspaceOnAnEmptyFieldStepsBackWhateverTheUnit() {
        var h = FormHarness(fields: [field("a"), field("b") { $0.deleteOnEmpty = .focusPrevious }])
        h.focus("b")
        h.send(.delete(field: nil, direction: .backward, unit: .word), .edit(applied: false, reason: .empty),
               events: [.deletePressed(field: "b", textBefore: ""), .changeRejected(field: "b", reason: .empty),
                        .resigned("b"), .touched("b"), .became("a"), .visited("a"), .focusChanged(from: "b", to: "a")],
               state: { $0.focus("a"); $0["b"].touched = true; $0["a"].visited = true })
    }

    func testADisabledFieldRefusesEveryDelete() {
        var h = FormHarness(fields: [field("a") { $0.enabled = false; $0.text = "ab" }])
        for direction in DeleteDirection.allCases {
            for unit in TextUnit.allCases {
                h.send(.delete(field: "a", direction: direction, unit: unit), .edit(applied: false, reason: .disabled),
                       events: [.changeRejected(field: "a", reason: .disabled)])
            }
        }
    }

    // MARK: masked

    /// In a masked field the whole text is one word and one line, so deleting by word or
    /// line tells nothing about where the hidden text has spaces or line breaks.
    func testAMaskedFieldIsOneWordAndOneLine() {
        var h = FormHarness(fields: [field("pw", ["password"]) { $0.text = "ab cd" }, field("pin", ["password"]) { $0.text = "12\n34" }])
        caretAt(&h, "pw", 4)
        h.send(.delete(field: "pw", unit: .word), Self.applied,
               events: [.deletePressed(field: "pw", textBefore: "•••••"),
                        .textChanged(field: "pw", text: nil, length: 1, edit: TextEdit(0, 5, "•"), selection: .caret(0))],
               state: { $0["pw"].holds("d", display: "•", length: 1, selection: .caret(0)) })
        h.send(.delete(field: "pw", direction: .forward, unit: .word), Self.applied,
               events: [.textChanged(field: "pw", text: nil, length: 0, edit: TextEdit(0, 1, ""), selection: .caret(0))],
               state: { $0["pw"].holds("", display: "", length: 0, selection: .caret(0)) })
        caretAt(&h, "pin", 4)
        h.send(.delete(field: "pin", unit: .line), Self.applied,
               events: [.deletePressed(field: "pin", textBefore: "•••••"),
                        .textChanged(field: "pin", text: nil, length: 1, edit: TextEdit(0, 5, "•"), selection: .caret(0))],
               state: { $0["pin"].holds("4", display: "•", length: 1, selection: .caret(0)) })
        h.send(.delete(field: "pin", direction: .forward, unit: .line), Self.applied,
               events: [.textChanged(field: "pin", text: nil, length: 0, edit: TextEdit(0, 1, ""), selection: .caret(0))],
               state: { $0["pin"].holds("", display: "", length: 0, selection: .caret(0)) })
    }
}
