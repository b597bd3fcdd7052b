import XCTest
@testable import FormdCore

/// Rule 5: `delete F` (default: the first responder).
final class DeleteTests: XCTestCase {
    private static let applied = CommandResult.edit(applied: true, reason: nil)
    private static let empty = CommandResult.edit(applied: false, reason: .empty)

    func testDeleteReportsTheTextBeforeThenRemovesTheLastCharacter() {
        var h = FormHarness(fields: [field("a") { $0.text = "abc" }])
        h.focus("a")
        h.send(.delete(field: nil), Self.applied,
               events: [.deletePressed(field: "a", textBefore: "abc"),
                        .textChanged(field: "a", text: "ab", length: 2, edit: TextEdit(2, 3, ""), selection: .caret(2))],
               state: { $0["a"].holds("ab", length: 2, selection: .caret(2)) })
        h.send(.delete(field: "a"), Self.applied,
               events: [.deletePressed(field: "a", textBefore: "ab"),
                        .textChanged(field: "a", text: "a", length: 1, edit: TextEdit(1, 2, ""), selection: .caret(1))],
               state: { $0["a"].holds("a", length: 1, selection: .caret(1)) })
    }

    func testDeleteRemovesWholeGraphemeClusters() {
        let cafe = "cafe\u{301}"          // e + combining acute accent: one character
        let thumbs = "ok👍🏽"              // thumbs up + skin tone modifier: one character
        let flags = "🇫🇷🇩🇪"               // two regional-indicator pairs: two characters
        var h = FormHarness(fields: [field("cafe") { $0.text = cafe }, field("thumbs") { $0.text = thumbs },
                                     field("flags") { $0.text = flags }])
        h.send(.delete(field: "cafe"), Self.applied,
               events: [.deletePressed(field: "cafe", textBefore: cafe),
                        .textChanged(field: "cafe", text: "caf", length: 3, edit: TextEdit(3, 4, ""), selection: .caret(3))],
               state: { $0["cafe"].holds("caf", length: 3, selection: .caret(3)) })
        h.send(.delete(field: "thumbs"), Self.applied,
               events: [.deletePressed(field: "thumbs", textBefore: thumbs),
                        .textChanged(field: "thumbs", text: "ok", length: 2, edit: TextEdit(2, 3, ""), selection: .caret(2))],
               state: { $0["thumbs"].holds("ok", length: 2, selection: .caret(2)) })
        h.send(.delete(field: "flags"), Self.applied,
               events: [.deletePressed(field: "flags", textBefore: flags),
                        .textChanged(field: "flags", text: "🇫🇷", length: 1, edit: TextEdit(1, 2, ""), selection: .caret(1))],
               state: { $0["flags"].holds("🇫🇷", length: 1, selection: .caret(1)) })
    }

    func testLengthsCountCharactersNotScalarsOrBytes() {
        let h = FormHarness(fields: [field("a") { $0.text = "e\u{301}👍🏽🇫🇷" }])
        XCTAssertEqual(h.expected["default"]?["a"].length, 3)
    }

    /// A masked field's edit replaces the whole display: the three old bullets give way
    /// to two, whatever the Backspace removed (here a 👍🏽 of eight UTF-8 bytes).
    func testSecureFieldReportsOneBulletPerCharacterAndNeverTheText() {
        var h = FormHarness(fields: [field("pw", ["password"]) { $0.text = "s3👍🏽" }])
        h.send(.delete(field: "pw"), Self.applied,
               events: [.deletePressed(field: "pw", textBefore: "•••"),
                        .textChanged(field: "pw", text: nil, length: 2, edit: TextEdit(0, 3, "••"), selection: .caret(2))],
               state: { $0["pw"].holds("s3", display: "••", length: 2, selection: .caret(2)) })
    }

    func testRevealedSecureFieldReportsTheText() {
        var h = FormHarness(fields: [field("pw", ["password"]) { $0.text = "ab"; $0.revealed = true }])
        h.send(.delete(field: "pw"), Self.applied,
               events: [.deletePressed(field: "pw", textBefore: "ab"),
                        .textChanged(field: "pw", text: "a", length: 1, edit: TextEdit(1, 2, ""), selection: .caret(1))],
               state: { $0["pw"].holds("a", length: 1, selection: .caret(1)) })
    }

    func testDeleteThatBreaksAConstraintReportsTheNewValidity() {
        var h = FormHarness(fields: [field("pin") { $0.text = "1234"; $0.minLength = 4 }])
        let short = Validity(errors: [ValidationError(.tooShort, "Use at least 4 characters.")])
        h.send(.delete(field: "pin"), Self.applied,
               events: [.deletePressed(field: "pin", textBefore: "1234"),
                        .textChanged(field: "pin", text: "123", length: 3, edit: TextEdit(3, 4, ""), selection: .caret(3)),
                        .validityChanged(field: "pin", validity: short)],
               state: { $0["pin"].holds("123", length: 3, selection: .caret(3)); $0["pin"].validity = short })
        // Still too short: validity did not change, so it is not reported again.
        h.send(.delete(field: "pin"), Self.applied,
               events: [.deletePressed(field: "pin", textBefore: "123"),
                        .textChanged(field: "pin", text: "12", length: 2, edit: TextEdit(2, 3, ""), selection: .caret(2))],
               state: { $0["pin"].holds("12", length: 2, selection: .caret(2)) })
    }

    /// Decision: an empty delete is a refused edit like any other, so its
    /// `changeRejected` mirrors the result (`applied: false, reason: empty`).
    func testDeleteOnAnEmptyFieldIsRejectedAsEmpty() {
        var h = FormHarness(fields: plainFields("a", "b"))
        h.focus("b")
        h.send(.delete(field: nil), Self.empty,
               events: [.deletePressed(field: "b", textBefore: ""), .changeRejected(field: "b", reason: .empty)])
    }

    func testDeleteOnEmptyWithFocusPreviousStepsBackToThePreviousEnabledField() {
        var h = FormHarness(fields: [field("d1"), field("off") { $0.enabled = false }, field("d2") { $0.deleteOnEmpty = .focusPrevious }])
        h.focus("d2")
        h.send(.delete(field: nil), Self.empty,
               events: [.deletePressed(field: "d2", textBefore: ""), .changeRejected(field: "d2", reason: .empty),
                        .resigned("d2"), .touched("d2"), .became("d1"), .visited("d1"), .focusChanged(from: "d2", to: "d1")],
               state: { $0.focus("d1"); $0["d2"].touched = true; $0["d1"].visited = true })
    }

    func testFocusPreviousDoesNotWrapFromTheFirstField() {
        var h = FormHarness(fields: [field("a") { $0.deleteOnEmpty = .focusPrevious }, field("b")])
        h.focus("a")
        h.send(.delete(field: nil), Self.empty,
               events: [.deletePressed(field: "a", textBefore: ""), .changeRejected(field: "a", reason: .empty)])
    }

    func testFocusPreviousRespectsCanResign() {
        var h = FormHarness(fields: [field("a"), field("b") { $0.deleteOnEmpty = .focusPrevious; $0.canResignFirstResponder = false }])
        h.focus("b")
        h.send(.delete(field: nil), Self.empty,
               events: [.deletePressed(field: "b", textBefore: ""), .changeRejected(field: "b", reason: .empty)])
    }

    func testFocusPreviousOnlyWhenTheFieldIsEmpty() {
        var h = FormHarness(fields: [field("a"), field("b") { $0.deleteOnEmpty = .focusPrevious; $0.text = "x" }])
        h.focus("b")
        h.send(.delete(field: nil), Self.applied,
               events: [.deletePressed(field: "b", textBefore: "x"),
                        .textChanged(field: "b", text: "", length: 0, edit: TextEdit(0, 1, ""), selection: .caret(0))],
               state: { $0["b"].holds("", length: 0, selection: .caret(0)) })
        h.send(.delete(field: nil), Self.empty,
               events: [.deletePressed(field: "b", textBefore: ""), .changeRejected(field: "b", reason: .empty),
                        .resigned("b"), .touched("b"), .became("a"), .visited("a"), .focusChanged(from: "b", to: "a")],
               state: { $0.focus("a"); $0["b"].touched = true; $0["a"].visited = true })
    }

    func testOneTimeCodeBoxesBackspaceAcross() {
        let box: (inout FieldOptions) -> Void = { $0.maxLength = 1; $0.deleteOnEmpty = .focusPrevious }
        var h = FormHarness(fields: [field("c1", [], box), field("c2", [], box)])
        h.send(.setText(field: "c1", text: "7"), Self.applied,
               events: [.textChanged(field: "c1", text: "7", length: 1, edit: TextEdit(0, 0, "7"), selection: .caret(1))],
               state: { $0["c1"].holds("7", length: 1, selection: .caret(1)) })
        h.focus("c2")
        h.send(.delete(field: nil), Self.empty,
               events: [.deletePressed(field: "c2", textBefore: ""), .changeRejected(field: "c2", reason: .empty),
                        .resigned("c2"), .touched("c2"), .became("c1"), .visited("c1"), .focusChanged(from: "c2", to: "c1")],
               state: { $0.focus("c1"); $0["c2"].touched = true; $0["c1"].visited = true })
        h.send(.delete(field: nil), Self.applied,
               events: [.deletePressed(field: "c1", textBefore: "7"),
                        .textChanged(field: "c1", text: "", length: 0, edit: TextEdit(0, 1, ""), selection: .caret(0))],
               state: { $0["c1"].holds("", length: 0, selection: .caret(0), dirty: false) })
    }

    func testDeleteInADisabledFieldIsRejectedWithoutAKeyPress() {
        var h = FormHarness(fields: [field("a") { $0.enabled = false; $0.text = "abc" }])
        h.send(.delete(field: "a"), .edit(applied: false, reason: .disabled), events: [.changeRejected(field: "a", reason: .disabled)])
    }

    func testNoFieldAndNoFirstResponderIsAnError() {
        var h = FormHarness(fields: plainFields("a"))
        h.sendFailing(.delete(field: nil),
                      throws: .invalidParams("no field given and form \"default\" has no first responder; pass \"field\""))
        h.sendFailing(.delete(field: "zz"), throws: .unknownField(field: "zz", form: "default"))
    }
}
