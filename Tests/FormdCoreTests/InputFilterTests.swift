import XCTest
@testable import FormdCore

/// `inputFilter`: a pattern every inserted character must match whole. Typing,
/// a paste or `setText` with any failing character is refused whole; the text is left
/// as it was.
final class InputFilterTests: XCTestCase {
    private static let applied = CommandResult.edit(applied: true, reason: nil)
    private static let filtered = CommandResult.edit(applied: false, reason: .inputFilter)

    private func digits(_ set: @escaping (inout FieldOptions) -> Void = { _ in }) -> FieldSpec {
        field("pin") { $0.inputFilter = pattern("[0-9]"); set(&$0) }
    }

    func testTypingOnlyCharactersThatMatch() {
        var h = FormHarness(fields: [digits()])
        h.send(.insertText(field: "pin", text: "1"), Self.applied,
               events: [.textChanged(field: "pin", text: "1", length: 1, edit: TextEdit(0, 0, "1"), selection: .caret(1))],
               state: { $0["pin"].holds("1", length: 1, selection: .caret(1)) })
        h.send(.insertText(field: "pin", text: "23"), Self.applied,
               events: [.textChanged(field: "pin", text: "123", length: 3, edit: TextEdit(1, 1, "23"), selection: .caret(3))],
               state: { $0["pin"].holds("123", length: 3, selection: .caret(3)) })
        h.send(.insertText(field: "pin", text: "a"), Self.filtered, events: [.changeRejected(field: "pin", reason: .inputFilter)])
        // One bad character refuses the whole insert.
        h.send(.insertText(field: "pin", text: "4a"), Self.filtered, events: [.changeRejected(field: "pin", reason: .inputFilter)])
        h.send(.insertText(field: "pin", text: " "), Self.filtered, events: [.changeRejected(field: "pin", reason: .inputFilter)])
    }

    func testAPasteWithOneFailingCharacterIsRefusedWhole() {
        var h = FormHarness(fields: [digits()])
        h.send(.editAction(field: "pin", action: .paste, text: "12a4"), .editAction(performed: false, text: nil, reason: .inputFilter),
               events: [.changeRejected(field: "pin", reason: .inputFilter)])
        h.send(.editAction(field: "pin", action: .paste, text: "1234"), .editAction(performed: true, text: nil, reason: nil),
               events: [.textChanged(field: "pin", text: "1234", length: 4, edit: TextEdit(0, 0, "1234"), selection: .caret(4))],
               state: { $0["pin"].holds("1234", length: 4, selection: .caret(4)) })
    }

    func testSetTextGoesThroughTheFilterToo() {
        var h = FormHarness(fields: [digits()])
        h.send(.setText(field: "pin", text: "12a"), Self.filtered, events: [.changeRejected(field: "pin", reason: .inputFilter)])
        h.send(.setText(field: "pin", text: "99"), Self.applied,
               events: [.textChanged(field: "pin", text: "99", length: 2, edit: TextEdit(0, 0, "99"), selection: .caret(2))],
               state: { $0["pin"].holds("99", length: 2, selection: .caret(2)) })
        // The empty text has no character to fail.
        h.send(.setText(field: "pin", text: ""), Self.applied,
               events: [.textChanged(field: "pin", text: "", length: 0, edit: TextEdit(0, 2, ""), selection: .caret(0))],
               state: { $0["pin"].holds("", length: 0, selection: .caret(0), dirty: false) })
    }

    /// The filter sees whole characters: "👍🏽" is one character of two scalars.
    func testTheFilterMatchesWholeCharacters() {
        var h = FormHarness(fields: [field("a") { $0.inputFilter = pattern("[0-9]|👍🏽") }])
        h.send(.insertText(field: "a", text: "1👍🏽"), Self.applied,
               events: [.textChanged(field: "a", text: "1👍🏽", length: 2, edit: TextEdit(0, 0, "1👍🏽"), selection: .caret(2))],
               state: { $0["a"].holds("1👍🏽", length: 2, selection: .caret(2)) })
        h.send(.insertText(field: "a", text: "👍"), Self.filtered, events: [.changeRejected(field: "a", reason: .inputFilter)])
    }

    /// Decision: the filter judges what is inserted; a combining accent typed on its own
    /// is a character that `[a-z]` does not match, even though it would join the "e"
    /// before it.
    func testAnAccentTypedOnItsOwnIsJudgedOnItsOwn() {
        var h = FormHarness(fields: [field("a") { $0.inputFilter = pattern("[a-z]"); $0.text = "e" }])
        h.send(.insertText(field: "a", text: "\u{301}"), Self.filtered, events: [.changeRejected(field: "a", reason: .inputFilter)])
    }

    /// Decision: the filter guards insertions only. The initial text is not judged, and
    /// deleting is always allowed.
    func testTheFilterDoesNotJudgeTheTextAlreadyThere() {
        var h = FormHarness(fields: [digits { $0.text = "ab" }])
        h.send(.delete(field: "pin"), Self.applied,
               events: [.deletePressed(field: "pin", textBefore: "ab"),
                        .textChanged(field: "pin", text: "a", length: 1, edit: TextEdit(1, 2, ""), selection: .caret(1))],
               state: { $0["pin"].holds("a", length: 1, selection: .caret(1)) })
        h.send(.insertText(field: "pin", text: "1"), Self.applied,
               events: [.textChanged(field: "pin", text: "a1", length: 2, edit: TextEdit(1, 1, "1"), selection: .caret(2))],
               state: { $0["pin"].holds("a1", length: 2, selection: .caret(2)) })
    }

    func testDisabledIsCheckedFirstThenTheFilterThenMaxLength() {
        var h = FormHarness(fields: [digits { $0.text = "12"; $0.maxLength = 2 }])
        h.send(.insertText(field: "pin", text: "a"), Self.filtered, events: [.changeRejected(field: "pin", reason: .inputFilter)])
        h.send(.insertText(field: "pin", text: "3"), .edit(applied: false, reason: .maxLength),
               events: [.changeRejected(field: "pin", reason: .maxLength)])
        h.send(.setEnabled(field: "pin", false), events: [.changed("pin") { $0.enabled = false }],
               state: { $0["pin"].attributes.enabled = false })
        h.send(.insertText(field: "pin", text: "a"), .edit(applied: false, reason: .disabled),
               events: [.changeRejected(field: "pin", reason: .disabled)])
    }

    func testARefusedSecretLeavesNoTraceOfIt() {
        var h = FormHarness(fields: [field("pw", ["password"]) { $0.inputFilter = pattern("[a-z]") }])
        h.send(.insertText(field: "pw", text: "abC"), Self.filtered, events: [.changeRejected(field: "pw", reason: .inputFilter)])
    }

    func testConfiguringAFilterReportsItAndKeepsTheText() {
        var h = FormHarness(fields: [field("a") { $0.text = "x1" }])
        h.send(.configureField("a", options: options { $0.inputFilter = pattern("[0-9]") }, configuration: nil),
               events: [.changed("a") { $0.inputFilter = pattern("[0-9]") }],
               state: { $0["a"].attributes.inputFilter = pattern("[0-9]") })
        h.send(.insertText(field: "a", text: "x"), Self.filtered, events: [.changeRejected(field: "a", reason: .inputFilter)])
        h.send(.configureField("a", options: options { $0.inputFilter = .some(nil) }, configuration: nil),
               events: [.changed("a") { $0.inputFilter = .some(nil) }],
               state: { $0["a"].attributes.inputFilter = nil })
        h.send(.insertText(field: "a", text: "x"), Self.applied,
               events: [.textChanged(field: "a", text: "x1x", length: 3, edit: TextEdit(2, 2, "x"), selection: .caret(3))],
               state: { $0["a"].holds("x1x", length: 3, selection: .caret(3)) })
    }
}
