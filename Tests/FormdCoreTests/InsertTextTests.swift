import XCTest
@testable import FormdCore

/// `insertText {field?, text}`: typing at the caret, or over the selection, through the same
/// filters as `setText`; the caret ends after what was inserted.
final class InsertTextTests: XCTestCase {
    private static let applied = CommandResult.edit(applied: true, reason: nil)

    func testTypingInsertsAtTheCaretAndMovesItAfterTheText() {
        var h = FormHarness(fields: [field("a") { $0.text = "ac" }])
        h.focus("a")
        h.send(.insertText(field: nil, text: "d"), Self.applied,
               events: [.textChanged(field: "a", text: "acd", length: 3, edit: TextEdit(2, 2, "d"), selection: .caret(3))],
               state: { $0["a"].holds("acd", length: 3, selection: .caret(3)) })
        h.send(.select(field: nil, start: 1, end: 1), .selection(.caret(1)),
               events: [.selectionChanged(field: "a", selection: .caret(1))], state: { $0["a"].selection = .caret(1) })
        h.send(.insertText(field: nil, text: "b"), Self.applied,
               events: [.textChanged(field: "a", text: "abcd", length: 4, edit: TextEdit(1, 1, "b"), selection: .caret(2))],
               state: { $0["a"].holds("abcd", length: 4, selection: .caret(2)) })
        h.send(.moveCaret(field: nil, to: .start, extend: false), .selection(.caret(0)),
               events: [.selectionChanged(field: "a", selection: .caret(0))], state: { $0["a"].selection = .caret(0) })
        h.send(.insertText(field: nil, text: "<👍🏽"), Self.applied,
               events: [.textChanged(field: "a", text: "<👍🏽abcd", length: 6, edit: TextEdit(0, 0, "<👍🏽"), selection: .caret(2))],
               state: { $0["a"].holds("<👍🏽abcd", length: 6, selection: .caret(2)) })
    }

    func testTypingReplacesTheSelectionForwardOrBackward() {
        var h = FormHarness(fields: [field("a") { $0.text = "hello world" }])
        h.focus("a")
        h.send(.select(field: nil, start: 0, end: 5), .selection(TextRange(0, 5)),
               events: [.selectionChanged(field: "a", selection: TextRange(0, 5))], state: { $0["a"].selection = TextRange(0, 5) })
        h.send(.insertText(field: nil, text: "goodbye"), Self.applied,
               events: [.textChanged(field: "a", text: "goodbye world", length: 13, edit: TextEdit(0, 5, "goodbye"), selection: .caret(7))],
               state: { $0["a"].holds("goodbye world", length: 13, selection: .caret(7)) })
        h.send(.select(field: nil, start: 13, end: 8), .selection(.backward(8, 13)),
               events: [.selectionChanged(field: "a", selection: .backward(8, 13))], state: { $0["a"].selection = .backward(8, 13) })
        h.send(.insertText(field: nil, text: "🌍"), Self.applied,
               events: [.textChanged(field: "a", text: "goodbye 🌍", length: 9, edit: TextEdit(8, 13, "🌍"), selection: .caret(9))],
               state: { $0["a"].holds("goodbye 🌍", length: 9, selection: .caret(9)) })
    }

    /// The edit names only the characters that really changed: typing "lp" over the
    /// selected "lo" of "hello" reports "o" → "p", and a selection typed over with the
    /// very text it holds is no text change at all, only a caret move.
    func testTheEditIsTheSmallestChangeAndTypingTheSameTextOnlyMovesTheCaret() {
        var h = FormHarness(fields: [field("a") { $0.text = "hello" }])
        h.send(.select(field: "a", start: 3, end: 5), .selection(TextRange(3, 5)),
               events: [.selectionChanged(field: "a", selection: TextRange(3, 5))], state: { $0["a"].selection = TextRange(3, 5) })
        h.send(.insertText(field: "a", text: "lp"), Self.applied,
               events: [.textChanged(field: "a", text: "hellp", length: 5, edit: TextEdit(4, 5, "p"), selection: .caret(5))],
               state: { $0["a"].holds("hellp", length: 5, selection: .caret(5)) })
        h.send(.select(field: "a", start: 1, end: 3), .selection(TextRange(1, 3)),
               events: [.selectionChanged(field: "a", selection: TextRange(1, 3))], state: { $0["a"].selection = TextRange(1, 3) })
        h.send(.insertText(field: "a", text: "el"), Self.applied,
               events: [.selectionChanged(field: "a", selection: .caret(3))], state: { $0["a"].selection = .caret(3) })
    }

    /// Decision: inserting nothing at a caret is applied and changes nothing; inserting
    /// nothing over a selection deletes it.
    func testInsertingNothing() {
        var h = FormHarness(fields: [field("a") { $0.text = "abcd" }])
        h.send(.insertText(field: "a", text: ""), Self.applied, events: [])
        h.send(.select(field: "a", start: 1, end: 3), .selection(TextRange(1, 3)),
               events: [.selectionChanged(field: "a", selection: TextRange(1, 3))], state: { $0["a"].selection = TextRange(1, 3) })
        h.send(.insertText(field: "a", text: ""), Self.applied,
               events: [.textChanged(field: "a", text: "ad", length: 2, edit: TextEdit(1, 3, ""), selection: .caret(1))],
               state: { $0["a"].holds("ad", length: 2, selection: .caret(1)) })
    }

    func testANamedFieldTakesTheTextWithoutTakingFocus() {
        var h = FormHarness(fields: plainFields("a", "b"))
        h.focus("a")
        h.send(.insertText(field: "b", text: "x"), Self.applied,
               events: [.textChanged(field: "b", text: "x", length: 1, edit: TextEdit(0, 0, "x"), selection: .caret(1))],
               state: { $0["b"].holds("x", length: 1, selection: .caret(1)) })
    }

    func testMaxLengthCountsTheTextAfterTheSelectionIsReplaced() {
        var h = FormHarness(fields: [field("a") { $0.text = "abcde"; $0.maxLength = 5 }])
        h.send(.insertText(field: "a", text: "f"), .edit(applied: false, reason: .maxLength),
               events: [.changeRejected(field: "a", reason: .maxLength)])
        h.send(.select(field: "a", start: 1, end: 3), .selection(TextRange(1, 3)),
               events: [.selectionChanged(field: "a", selection: TextRange(1, 3))], state: { $0["a"].selection = TextRange(1, 3) })
        // Three characters over two: six in all, refused; the selection stays.
        h.send(.insertText(field: "a", text: "XYZ"), .edit(applied: false, reason: .maxLength),
               events: [.changeRejected(field: "a", reason: .maxLength)])
        h.send(.insertText(field: "a", text: "XY"), Self.applied,
               events: [.textChanged(field: "a", text: "aXYde", length: 5, edit: TextEdit(1, 3, "XY"), selection: .caret(3))],
               state: { $0["a"].holds("aXYde", length: 5, selection: .caret(3)) })
    }

    func testTypingReportsValidityChanges() {
        let mismatch = Validity(errors: [ValidationError(.patternMismatch, ValidationError.wrongForm)])
        var h = FormHarness(fields: [field("a") { $0.required = true; $0.pattern = pattern("[0-9]+") }])
        h.send(.insertText(field: "a", text: "1"), Self.applied,
               events: [.textChanged(field: "a", text: "1", length: 1, edit: TextEdit(0, 0, "1"), selection: .caret(1)),
                        .validityChanged(field: "a", validity: .valid)],
               state: { $0["a"].holds("1", length: 1, selection: .caret(1)); $0["a"].validity = .valid })
        h.send(.insertText(field: "a", text: "x"), Self.applied,
               events: [.textChanged(field: "a", text: "1x", length: 2, edit: TextEdit(1, 1, "x"), selection: .caret(2)),
                        .validityChanged(field: "a", validity: mismatch)],
               state: { $0["a"].holds("1x", length: 2, selection: .caret(2)); $0["a"].validity = mismatch })
    }

    func testAMaskedFieldReportsBulletsOnly() {
        var h = FormHarness(fields: [field("pw", ["password"]) { $0.text = "abc" }])
        h.send(.select(field: "pw", start: 1, end: 2), .selection(TextRange(1, 2)),
               events: [.selectionChanged(field: "pw", selection: TextRange(1, 2))], state: { $0["pw"].selection = TextRange(1, 2) })
        h.send(.insertText(field: "pw", text: "XY"), Self.applied,
               events: [.textChanged(field: "pw", text: nil, length: 4, edit: TextEdit(0, 3, "••••"), selection: .caret(3))],
               state: { $0["pw"].holds("aXYc", display: "••••", length: 4, selection: .caret(3)) })
    }

    func testADisabledFieldRefusesTyping() {
        var h = FormHarness(fields: [field("a") { $0.enabled = false; $0.text = "keep" }])
        h.send(.insertText(field: "a", text: "x"), .edit(applied: false, reason: .disabled),
               events: [.changeRejected(field: "a", reason: .disabled)])
    }

    func testNoFieldAndNoFirstResponderOrAnUnknownFieldIsAnError() {
        var h = FormHarness(fields: plainFields("a"))
        h.sendFailing(.insertText(field: nil, text: "x"),
                      throws: .invalidParams("no field given and form \"default\" has no first responder; pass \"field\""))
        h.sendFailing(.insertText(field: "zz", text: "x"), throws: .unknownField(field: "zz", form: "default"))
        h.sendFailing(.insertText(field: "a", text: "x"), on: "nope", throws: .unknownForm("nope"))
    }
}
