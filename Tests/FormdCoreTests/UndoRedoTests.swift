import XCTest
@testable import FormdCore

/// `undo`/`redo`: a per-field history. Consecutive typing is one step and so is a run of
/// Backspaces, as in a native text field; `setText`, a paste and every other edit are a
/// step each; a caret move ends a run; a new edit clears redo. Undo puts back the text and
/// the selection from before the step; redo puts the caret after what it inserted.
final class UndoRedoTests: XCTestCase {
    private static let applied = CommandResult.edit(applied: true, reason: nil)
    private static let nothingToUndo = CommandResult.edit(applied: false, reason: .nothingToUndo)
    private static let nothingToRedo = CommandResult.edit(applied: false, reason: .nothingToRedo)

    /// Sends one `insertText` into the first responder `a` and checks the typed text.
    private func type(_ h: inout FormHarness, _ s: String, giving text: String, edit: TextEdit, caret: Int,
                      file: StaticString = #filePath, line: UInt = #line) {
        h.send(.insertText(field: nil, text: s), Self.applied,
               events: [.textChanged(field: "a", text: text, length: text.count, edit: edit, selection: .caret(caret))],
               state: { $0["a"].holds(text, length: text.count, selection: .caret(caret)) }, file: file, line: line)
    }

    private func undo(_ h: inout FormHarness, giving text: String, edit: TextEdit, selection: TextRange, dirty: Bool = true,
                      file: StaticString = #filePath, line: UInt = #line) {
        h.send(.undo(field: nil), Self.applied,
               events: [.textChanged(field: "a", text: text, length: text.count, edit: edit, selection: selection)],
               state: { $0["a"].holds(text, length: text.count, selection: selection, dirty: dirty) }, file: file, line: line)
    }

    private func redo(_ h: inout FormHarness, giving text: String, edit: TextEdit, caret: Int, dirty: Bool = true,
                      file: StaticString = #filePath, line: UInt = #line) {
        h.send(.redo(field: nil), Self.applied,
               events: [.textChanged(field: "a", text: text, length: text.count, edit: edit, selection: .caret(caret))],
               state: { $0["a"].holds(text, length: text.count, selection: .caret(caret), dirty: dirty) }, file: file, line: line)
    }

    private func harness(_ text: String = "") -> FormHarness {
        var h = FormHarness(fields: [field("a") { $0.text = text }, field("b")])
        h.focus("a")
        return h
    }

    func testConsecutiveTypingIsOneStep() {
        var h = harness()
        h.send(.undo(field: nil), Self.nothingToUndo, events: [])
        type(&h, "h", giving: "h", edit: TextEdit(0, 0, "h"), caret: 1)
        type(&h, "ey", giving: "hey", edit: TextEdit(1, 1, "ey"), caret: 3)
        type(&h, "!", giving: "hey!", edit: TextEdit(3, 3, "!"), caret: 4)
        undo(&h, giving: "", edit: TextEdit(0, 4, ""), selection: .caret(0), dirty: false)
        h.send(.undo(field: nil), Self.nothingToUndo, events: [])
        redo(&h, giving: "hey!", edit: TextEdit(0, 0, "hey!"), caret: 4)
        h.send(.redo(field: nil), Self.nothingToRedo, events: [])
    }

    func testARunOfBackspacesIsOneStepAndTypingAfterItIsAnother() {
        var h = harness("hello")
        for (before, after) in [("hello", "hell"), ("hell", "hel"), ("hel", "he")] {
            h.send(.delete(field: nil), Self.applied,
                   events: [.deletePressed(field: "a", textBefore: before),
                            .textChanged(field: "a", text: after, length: after.count, edit: TextEdit(after.count, before.count, ""),
                                         selection: .caret(after.count))],
                   state: { $0["a"].holds(after, length: after.count, selection: .caret(after.count)) })
        }
        type(&h, "y", giving: "hey", edit: TextEdit(2, 2, "y"), caret: 3)
        undo(&h, giving: "he", edit: TextEdit(2, 3, ""), selection: .caret(2))
        undo(&h, giving: "hello", edit: TextEdit(2, 2, "llo"), selection: .caret(5), dirty: false)
        // The initial text is where history starts.
        h.send(.undo(field: nil), Self.nothingToUndo, events: [])
    }

    /// Decision: only Backspace by character coalesces; a forward or word delete is a step
    /// of its own.
    func testForwardAndWordDeletesAreAStepEach() {
        var h = harness("one two three")
        h.send(.delete(field: nil, unit: .word), Self.applied,
               events: [.deletePressed(field: "a", textBefore: "one two three"),
                        .textChanged(field: "a", text: "one two ", length: 8, edit: TextEdit(8, 13, ""), selection: .caret(8))],
               state: { $0["a"].holds("one two ", length: 8, selection: .caret(8)) })
        h.send(.delete(field: nil, unit: .word), Self.applied,
               events: [.deletePressed(field: "a", textBefore: "one two "),
                        .textChanged(field: "a", text: "one ", length: 4, edit: TextEdit(4, 8, ""), selection: .caret(4))],
               state: { $0["a"].holds("one ", length: 4, selection: .caret(4)) })
        undo(&h, giving: "one two ", edit: TextEdit(4, 4, "two "), selection: .caret(8))
        undo(&h, giving: "one two three", edit: TextEdit(8, 8, "three"), selection: .caret(13), dirty: false)
    }

    func testSetTextAndPasteAreAStepEach() {
        var h = harness()
        h.send(.setText(field: "a", text: "one"), Self.applied,
               events: [.textChanged(field: "a", text: "one", length: 3, edit: TextEdit(0, 0, "one"), selection: .caret(3))],
               state: { $0["a"].holds("one", length: 3, selection: .caret(3)) })
        h.send(.setText(field: "a", text: "two"), Self.applied,
               events: [.textChanged(field: "a", text: "two", length: 3, edit: TextEdit(0, 3, "two"), selection: .caret(3))],
               state: { $0["a"].holds("two", length: 3, selection: .caret(3)) })
        for (pasted, text) in [("!", "two!"), ("?", "two!?")] {
            h.send(.editAction(field: nil, action: .paste, text: pasted), .editAction(performed: true, text: nil, reason: nil),
                   events: [.textChanged(field: "a", text: text, length: text.count, edit: TextEdit(text.count - 1, text.count - 1, pasted),
                                         selection: .caret(text.count))],
                   state: { $0["a"].holds(text, length: text.count, selection: .caret(text.count)) })
        }
        undo(&h, giving: "two!", edit: TextEdit(4, 5, ""), selection: .caret(4))
        undo(&h, giving: "two", edit: TextEdit(3, 4, ""), selection: .caret(3))
        undo(&h, giving: "one", edit: TextEdit(0, 3, "one"), selection: .caret(3))
        undo(&h, giving: "", edit: TextEdit(0, 3, ""), selection: .caret(0), dirty: false)
        redo(&h, giving: "one", edit: TextEdit(0, 0, "one"), caret: 3)
        redo(&h, giving: "two", edit: TextEdit(0, 3, "two"), caret: 3)
    }

    func testACaretMoveEndsATypingRun() {
        var h = harness()
        type(&h, "a", giving: "a", edit: TextEdit(0, 0, "a"), caret: 1)
        type(&h, "b", giving: "ab", edit: TextEdit(1, 1, "b"), caret: 2)
        h.send(.moveCaret(field: nil, to: .left, extend: false), .selection(.caret(1)),
               events: [.selectionChanged(field: "a", selection: .caret(1))], state: { $0["a"].selection = .caret(1) })
        type(&h, "c", giving: "acb", edit: TextEdit(1, 1, "c"), caret: 2)
        type(&h, "d", giving: "acdb", edit: TextEdit(2, 2, "d"), caret: 3)
        undo(&h, giving: "ab", edit: TextEdit(1, 3, ""), selection: .caret(1))
        undo(&h, giving: "", edit: TextEdit(0, 2, ""), selection: .caret(0), dirty: false)
    }

    func testSelectEndsATypingRunEvenWhereTheCaretAlreadyWas() {
        var h = harness()
        type(&h, "a", giving: "a", edit: TextEdit(0, 0, "a"), caret: 1)
        h.send(.select(field: nil, start: 1, end: 1), .selection(.caret(1)), events: [])
        type(&h, "b", giving: "ab", edit: TextEdit(1, 1, "b"), caret: 2)
        undo(&h, giving: "a", edit: TextEdit(1, 2, ""), selection: .caret(1))
    }

    func testANewEditClearsRedoButARefusedOneDoesNot() {
        var h = FormHarness(fields: [field("a") { $0.maxLength = 2 }])
        h.focus("a")
        type(&h, "ab", giving: "ab", edit: TextEdit(0, 0, "ab"), caret: 2)
        undo(&h, giving: "", edit: TextEdit(0, 2, ""), selection: .caret(0), dirty: false)
        h.send(.insertText(field: nil, text: "xyz"), .edit(applied: false, reason: .maxLength),
               events: [.changeRejected(field: "a", reason: .maxLength)])
        redo(&h, giving: "ab", edit: TextEdit(0, 0, "ab"), caret: 2)
        undo(&h, giving: "", edit: TextEdit(0, 2, ""), selection: .caret(0), dirty: false)
        type(&h, "x", giving: "x", edit: TextEdit(0, 0, "x"), caret: 1)
        h.send(.redo(field: nil), Self.nothingToRedo, events: [])
    }

    func testUndoRestoresTheSelectionBackwardsIfItWas() {
        var h = harness("hello")
        h.send(.select(field: nil, start: 4, end: 1), .selection(.backward(1, 4)),
               events: [.selectionChanged(field: "a", selection: .backward(1, 4))], state: { $0["a"].selection = .backward(1, 4) })
        type(&h, "a", giving: "hao", edit: TextEdit(1, 4, "a"), caret: 2)
        type(&h, "b", giving: "habo", edit: TextEdit(2, 2, "b"), caret: 3)
        undo(&h, giving: "hello", edit: TextEdit(1, 3, "ell"), selection: .backward(1, 4), dirty: false)
        // Still anchored at 4: extending moves the other end.
        h.send(.moveCaret(field: nil, to: .right, extend: true), .selection(.backward(2, 4)),
               events: [.selectionChanged(field: "a", selection: .backward(2, 4))], state: { $0["a"].selection = .backward(2, 4) })
        redo(&h, giving: "habo", edit: TextEdit(1, 4, "ab"), caret: 3)
    }

    /// Bug fixed: undoing a combining accent typed after an "e" that was already there
    /// removed the "e" too and then crashed restoring the caret.
    func testUndoOfAnAccentThatMergedIntoTheCharacterBeforeIt() {
        var h = harness()
        h.send(.setText(field: "a", text: "e"), Self.applied,
               events: [.textChanged(field: "a", text: "e", length: 1, edit: TextEdit(0, 0, "e"), selection: .caret(1))],
               state: { $0["a"].holds("e", length: 1, selection: .caret(1)) })
        type(&h, "\u{301}", giving: "e\u{301}", edit: TextEdit(0, 1, "e\u{301}"), caret: 1)
        type(&h, "x", giving: "e\u{301}x", edit: TextEdit(1, 1, "x"), caret: 2)
        undo(&h, giving: "e", edit: TextEdit(0, 2, "e"), selection: .caret(1))
        redo(&h, giving: "e\u{301}x", edit: TextEdit(0, 1, "e\u{301}x"), caret: 2)
        undo(&h, giving: "e", edit: TextEdit(0, 2, "e"), selection: .caret(1))
        undo(&h, giving: "", edit: TextEdit(0, 1, ""), selection: .caret(0), dirty: false)
    }

    func testHistoryIsPerField() {
        var h = harness()
        type(&h, "a", giving: "a", edit: TextEdit(0, 0, "a"), caret: 1)
        h.send(.insertText(field: "b", text: "b"), Self.applied,
               events: [.textChanged(field: "b", text: "b", length: 1, edit: TextEdit(0, 0, "b"), selection: .caret(1))],
               state: { $0["b"].holds("b", length: 1, selection: .caret(1)) })
        undo(&h, giving: "", edit: TextEdit(0, 1, ""), selection: .caret(0), dirty: false)
        h.send(.undo(field: "b"), Self.applied,
               events: [.textChanged(field: "b", text: "", length: 0, edit: TextEdit(0, 1, ""), selection: .caret(0))],
               state: { $0["b"].holds("", length: 0, selection: .caret(0), dirty: false) })
        h.send(.redo(field: "b"), Self.applied,
               events: [.textChanged(field: "b", text: "b", length: 1, edit: TextEdit(0, 0, "b"), selection: .caret(1))],
               state: { $0["b"].holds("b", length: 1, selection: .caret(1)) })
    }

    func testUndoAndRedoReportValidity() {
        let required = Validity(errors: [ValidationError(.valueMissing, "Fill in this field.")])
        var h = FormHarness(fields: [field("a") { $0.required = true }])
        h.focus("a")
        h.send(.insertText(field: nil, text: "x"), Self.applied,
               events: [.textChanged(field: "a", text: "x", length: 1, edit: TextEdit(0, 0, "x"), selection: .caret(1)),
                        .validityChanged(field: "a", validity: .valid)],
               state: { $0["a"].holds("x", length: 1, selection: .caret(1)); $0["a"].validity = .valid })
        h.send(.undo(field: nil), Self.applied,
               events: [.textChanged(field: "a", text: "", length: 0, edit: TextEdit(0, 1, ""), selection: .caret(0)),
                        .validityChanged(field: "a", validity: required)],
               state: { $0["a"].holds("", length: 0, selection: .caret(0), dirty: false); $0["a"].validity = required })
        h.send(.redo(field: nil), Self.applied,
               events: [.textChanged(field: "a", text: "x", length: 1, edit: TextEdit(0, 0, "x"), selection: .caret(1)),
                        .validityChanged(field: "a", validity: .valid)],
               state: { $0["a"].holds("x", length: 1, selection: .caret(1)); $0["a"].validity = .valid })
    }

    func testUndoInAMaskedFieldReportsBullets() {
        var h = FormHarness(fields: [field("pw", ["password"])])
        h.send(.insertText(field: "pw", text: "s3"), Self.applied,
               events: [.textChanged(field: "pw", text: nil, length: 2, edit: TextEdit(0, 0, "••"), selection: .caret(2))],
               state: { $0["pw"].holds("s3", display: "••", length: 2, selection: .caret(2)) })
        h.send(.undo(field: "pw"), Self.applied,
               events: [.textChanged(field: "pw", text: nil, length: 0, edit: TextEdit(0, 2, ""), selection: .caret(0))],
               state: { $0["pw"].holds("", length: 0, selection: .caret(0), dirty: false) })
    }

    func testTheOldestStepsAreDroppedPastTheLimit() {
        var h = FormHarness(fields: plainFields("a"), limits: EngineLimits(maxUndoSteps: 2))
        h.focus("a")
        for (old, new) in [("", "1"), ("1", "2"), ("2", "3")] {
            h.send(.setText(field: "a", text: new), Self.applied,
                   events: [.textChanged(field: "a", text: new, length: 1, edit: TextEdit(0, old.count, new), selection: .caret(1))],
                   state: { $0["a"].holds(new, length: 1, selection: .caret(1)) })
        }
        undo(&h, giving: "2", edit: TextEdit(0, 1, "2"), selection: .caret(1))
        undo(&h, giving: "1", edit: TextEdit(0, 1, "1"), selection: .caret(1))
        h.send(.undo(field: nil), Self.nothingToUndo, events: [])
    }

    func testResetForgetsTheHistory() {
        var h = harness()
        type(&h, "x", giving: "x", edit: TextEdit(0, 0, "x"), caret: 1)
        h.send(.reset, events: [.formReset(FormSnapshot(form: "default", seq: h.nextSeq(), firstResponder: nil,
                                                        fields: [.expect("a"), .expect("b")]))],
               state: { $0.fields = [.expect("a"), .expect("b")]; $0.focus(nil) })
        h.send(.undo(field: "a"), Self.nothingToUndo, events: [])
    }

    func testADisabledFieldRefusesUndoAndRedo() {
        var h = harness()
        type(&h, "x", giving: "x", edit: TextEdit(0, 0, "x"), caret: 1)
        h.send(.setEnabled(field: "a", false),
               events: [.changed("a") { $0.enabled = false }, .resigned("a"), .touched("a"), .focusChanged(from: "a", to: nil)],
               state: { $0["a"].attributes.enabled = false; $0.focus(nil); $0["a"].touched = true })
        h.send(.undo(field: "a"), .edit(applied: false, reason: .disabled), events: [.changeRejected(field: "a", reason: .disabled)])
        h.send(.redo(field: "a"), .edit(applied: false, reason: .disabled), events: [.changeRejected(field: "a", reason: .disabled)])
    }

    func testNoFieldAndNoFirstResponderOrAnUnknownFieldIsAnError() {
        var h = FormHarness(fields: plainFields("a"))
        let none = FormError.invalidParams("no field given and form \"default\" has no first responder; pass \"field\"")
        h.sendFailing(.undo(field: nil), throws: none)
        h.sendFailing(.redo(field: nil), throws: none)
        h.sendFailing(.undo(field: "zz"), throws: .unknownField(field: "zz", form: "default"))
        h.sendFailing(.redo(field: "zz"), throws: .unknownField(field: "zz", form: "default"))
    }
}
