import XCTest
@testable import FormdCore

/// `editAction {field?, action, text?}`: the edit menu. `copy`/`cut` answer the text for
/// the client's clipboard, `paste` inserts `text` through the filters. A field offers only
/// its `supportedEditActions`, and a masked field never offers cut or copy; an action it
/// does not offer answers `performed: false` and changes nothing.
final class EditActionTests: XCTestCase {
    private static let performed = CommandResult.editAction(performed: true, text: nil, reason: nil)
    private static func refused(_ reason: RejectReason) -> CommandResult { .editAction(performed: false, text: nil, reason: reason) }

    private func select(_ h: inout FormHarness, _ id: String, _ start: Int, _ end: Int,
                        file: StaticString = #filePath, line: UInt = #line) {
        h.send(.select(field: id, start: start, end: end), .selection(TextRange(start, end)),
               events: [.selectionChanged(field: id, selection: TextRange(start, end))],
               state: { $0[id].selection = TextRange(start, end) }, file: file, line: line)
    }

    func testCopyCutPasteSelectAllAndDelete() {
        var h = FormHarness(fields: [field("a") { $0.text = "hello world" }])
        h.focus("a")
        select(&h, "a", 0, 5)
        h.send(.editAction(field: nil, action: .copy, text: nil), .editAction(performed: true, text: "hello", reason: nil), events: [])
        h.send(.editAction(field: nil, action: .cut, text: nil), .editAction(performed: true, text: "hello", reason: nil),
               events: [.textChanged(field: "a", text: " world", length: 6, edit: TextEdit(0, 5, ""), selection: .caret(0))],
               state: { $0["a"].holds(" world", length: 6, selection: .caret(0)) })
        h.send(.editAction(field: nil, action: .paste, text: "HELLO"), Self.performed,
               events: [.textChanged(field: "a", text: "HELLO world", length: 11, edit: TextEdit(0, 0, "HELLO"), selection: .caret(5))],
               state: { $0["a"].holds("HELLO world", length: 11, selection: .caret(5)) })
        // Paste replaces the selection.
        select(&h, "a", 6, 11)
        h.send(.editAction(field: nil, action: .paste, text: "there"), Self.performed,
               events: [.textChanged(field: "a", text: "HELLO there", length: 11, edit: TextEdit(6, 11, "there"), selection: .caret(11))],
               state: { $0["a"].holds("HELLO there", length: 11, selection: .caret(11)) })
        h.send(.editAction(field: nil, action: .selectAll, text: nil), Self.performed,
               events: [.selectionChanged(field: "a", selection: TextRange(0, 11))], state: { $0["a"].selection = TextRange(0, 11) })
        h.send(.editAction(field: nil, action: .selectAll, text: nil), Self.performed, events: [])
        // The menu's Delete removes the selection; it is not the Backspace key.
        h.send(.editAction(field: nil, action: .delete, text: nil), Self.performed,
               events: [.textChanged(field: "a", text: "", length: 0, edit: TextEdit(0, 11, ""), selection: .caret(0))],
               state: { $0["a"].holds("", length: 0, selection: .caret(0)) })
    }

    func testCopyCutAndDeleteNeedASelection() {
        var h = FormHarness(fields: [field("a") { $0.text = "abc" }])
        for action in [EditAction.copy, .cut, .delete] {
            h.send(.editAction(field: "a", action: action, text: nil), Self.refused(.noSelection), events: [])
        }
    }

    func testSelectAllOnAnEmptyFieldHasNothingToMove() {
        var h = FormHarness(fields: plainFields("a"))
        h.send(.editAction(field: "a", action: .selectAll, text: nil), Self.performed, events: [])
    }

    func testAFieldOffersOnlyItsSupportedEditActions() {
        var h = FormHarness(fields: [field("a") { $0.text = "abc"; $0.supportedEditActions = [.copy, .selectAll] },
                                     field("none") { $0.text = "abc"; $0.supportedEditActions = [] }])
        h.send(.editAction(field: "a", action: .selectAll, text: nil), Self.performed,
               events: [.selectionChanged(field: "a", selection: TextRange(0, 3))], state: { $0["a"].selection = TextRange(0, 3) })
        h.send(.editAction(field: "a", action: .copy, text: nil), .editAction(performed: true, text: "abc", reason: nil), events: [])
        h.send(.editAction(field: "a", action: .cut, text: nil), Self.refused(.unsupported), events: [])
        h.send(.editAction(field: "a", action: .delete, text: nil), Self.refused(.unsupported), events: [])
        h.send(.editAction(field: "a", action: .paste, text: "x"), Self.refused(.unsupported), events: [])
        for action in EditAction.allCases {
            h.send(.editAction(field: "none", action: action, text: action == .paste ? "x" : nil), Self.refused(.unsupported), events: [])
        }
    }

    func testAMaskedFieldRefusesCutAndCopyButPastesSelectsAndDeletes() {
        var h = FormHarness(fields: [field("pw", ["password"]) { $0.text = "secret" }])
        h.focus("pw")
        h.send(.editAction(field: nil, action: .selectAll, text: nil), Self.performed,
               events: [.selectionChanged(field: "pw", selection: TextRange(0, 6))], state: { $0["pw"].selection = TextRange(0, 6) })
        h.send(.editAction(field: nil, action: .copy, text: nil), Self.refused(.unsupported), events: [])
        h.send(.editAction(field: nil, action: .cut, text: nil), Self.refused(.unsupported), events: [])
        h.send(.editAction(field: nil, action: .delete, text: nil), Self.performed,
               events: [.textChanged(field: "pw", text: nil, length: 0, edit: TextEdit(0, 6, ""), selection: .caret(0))],
               state: { $0["pw"].holds("", display: "", length: 0, selection: .caret(0)) })
        h.send(.editAction(field: nil, action: .paste, text: "n3w"), Self.performed,
               events: [.textChanged(field: "pw", text: nil, length: 3, edit: TextEdit(0, 0, "•••"), selection: .caret(3))],
               state: { $0["pw"].holds("n3w", display: "•••", length: 3, selection: .caret(3)) })
    }

    func testARevealedSecureFieldAllowsCutAndCopyUntilItIsMaskedAgain() {
        var h = FormHarness(fields: [field("pw", ["password"]) { $0.text = "secret"; $0.revealed = true }])
        select(&h, "pw", 0, 3)
        h.send(.editAction(field: "pw", action: .copy, text: nil), .editAction(performed: true, text: "sec", reason: nil), events: [])
        h.send(.editAction(field: "pw", action: .cut, text: nil), .editAction(performed: true, text: "sec", reason: nil),
               events: [.textChanged(field: "pw", text: "ret", length: 3, edit: TextEdit(0, 3, ""), selection: .caret(0))],
               state: { $0["pw"].holds("ret", length: 3, selection: .caret(0)) })
        // The caret at 0 is 0 over the text and over the display: no selection in the change.
        h.send(.setRevealed(field: "pw", false),
               events: [.fieldChanged(field: "pw", changes: FieldChanges(options: options { $0.revealed = false }, display: "•••", text: nil))],
               state: { $0["pw"].attributes.revealed = false; $0["pw"].display = "•••" })
        select(&h, "pw", 0, 3)
        h.send(.editAction(field: "pw", action: .copy, text: nil), Self.refused(.unsupported), events: [])
        h.send(.editAction(field: "pw", action: .cut, text: nil), Self.refused(.unsupported), events: [])
    }

    func testPasteGoesThroughMaxLength() {
        var h = FormHarness(fields: [field("a") { $0.text = "ab"; $0.maxLength = 3 }])
        h.send(.editAction(field: "a", action: .paste, text: "cd"), Self.refused(.maxLength),
               events: [.changeRejected(field: "a", reason: .maxLength)])
        select(&h, "a", 0, 1)
        h.send(.editAction(field: "a", action: .paste, text: "cd"), Self.performed,
               events: [.textChanged(field: "a", text: "cdb", length: 3, edit: TextEdit(0, 1, "cd"), selection: .caret(2))],
               state: { $0["a"].holds("cdb", length: 3, selection: .caret(2)) })
    }

    /// Decision: in a disabled field every action is refused; those that would have
    /// changed the text (cut, paste, delete) report `changeRejected` like every refused
    /// edit. An action the field does not offer is `unsupported` first.
    func testADisabledFieldRefusesEveryAction() {
        var h = FormHarness(fields: [field("a") { $0.text = "abc" },
                                     field("off") { $0.text = "abc"; $0.enabled = false; $0.supportedEditActions = [.copy] }])
        select(&h, "a", 0, 3)
        h.send(.setEnabled(field: "a", false), events: [.changed("a") { $0.enabled = false }], state: { $0["a"].attributes.enabled = false })
        for action in [EditAction.cut, .paste, .delete] {
            h.send(.editAction(field: "a", action: action, text: action == .paste ? "x" : nil), Self.refused(.disabled),
                   events: [.changeRejected(field: "a", reason: .disabled)])
        }
        h.send(.editAction(field: "a", action: .copy, text: nil), Self.refused(.disabled), events: [])
        h.send(.editAction(field: "a", action: .selectAll, text: nil), Self.refused(.disabled), events: [])
        h.send(.editAction(field: "off", action: .paste, text: "x"), Self.refused(.unsupported), events: [])
    }

    func testNoFieldAndNoFirstResponderOrAnUnknownFieldIsAnError() {
        var h = FormHarness(fields: plainFields("a"))
        h.sendFailing(.editAction(field: nil, action: .selectAll, text: nil),
                      throws: .invalidParams("no field given and form \"default\" has no first responder; pass \"field\""))
        h.sendFailing(.editAction(field: "zz", action: .paste, text: "x"), throws: .unknownField(field: "zz", form: "default"))
    }
}
