import XCTest
@testable import FormdCore

/// Rule 7: `clearsOnBeginEditing` clears the text each time the field becomes first
/// responder, whatever moved focus there.
final class ClearsOnBeginEditingTests: XCTestCase {
    func testTextIsClearedEachTimeTheFieldBecomesFirstResponder() {
        var h = FormHarness(fields: [field("a", ["autoclears"]) { $0.text = "old" }, field("b")])
        h.send(.demandFocus(field: "a", demand: .become), .demand(.fulfilled),
               events: [.became("a"), .visited("a"),
                        .textChanged(field: "a", text: "", length: 0, edit: TextEdit(0, 3, ""), selection: .caret(0)),
                        .focusChanged(from: nil, to: "a"), .demand("a", .fulfilled)],
               state: { $0.focus("a"); $0["a"].visited = true; $0["a"].holds("", length: 0, selection: .caret(0), dirty: true) })
        h.send(.setText(field: "a", text: "typed"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: "typed", length: 5, edit: TextEdit(0, 0, "typed"), selection: .caret(5))],
               state: { $0["a"].holds("typed", length: 5, selection: .caret(5)) })
        // Becoming again while already first responder is not beginning to edit: kept.
        h.send(.demandFocus(field: "a", demand: .become), .demand(.fulfilled), events: [.demand("a", .fulfilled)])
        h.send(.focusNext, .focus(firstResponder: "b", moved: true),
               events: [.resigned("a"), .touched("a"), .became("b"), .visited("b"), .focusChanged(from: "a", to: "b")],
               state: { $0.focus("b"); $0["a"].touched = true; $0["b"].visited = true })
        h.send(.focusNext, .focus(firstResponder: "a", moved: true),
               events: [.resigned("b"), .touched("b"), .became("a"),
                        .textChanged(field: "a", text: "", length: 0, edit: TextEdit(0, 5, ""), selection: .caret(0)),
                        .focusChanged(from: "b", to: "a")],
               state: { $0.focus("a"); $0["b"].touched = true; $0["a"].holds("", length: 0, selection: .caret(0), dirty: true) })
    }

    func testAnEmptyFieldHasNothingToClear() {
        var h = FormHarness(fields: [field("a", ["autoclears"])])
        h.focus("a")
    }

    func testClearingReportsTheValidityChangeBeforeFocusChanged() {
        let required = Validity(errors: [ValidationError(.valueMissing, "Fill in this field.")])
        var h = FormHarness(fields: [field("a"), field("b", ["autoclears"]) { $0.required = true; $0.text = "x" }])
        h.focus("a")
        h.send(.pressReturn(field: nil), .returnPressed(.next),
               events: [.returnPressed(field: "a", action: .next), .resigned("a"), .touched("a"), .became("b"), .visited("b"),
                        .textChanged(field: "b", text: "", length: 0, edit: TextEdit(0, 1, ""), selection: .caret(0)),
                        .validityChanged(field: "b", validity: required),
                        .focusChanged(from: "a", to: "b")],
               state: {
                   $0.focus("b"); $0["a"].touched = true; $0["b"].visited = true
                   $0["b"].holds("", length: 0, selection: .caret(0)); $0["b"].validity = required
               })
    }

    func testSecureFieldIsClearedWithoutShowingItsText() {
        var h = FormHarness(fields: [field("a"), field("pw", ["password", "autoclears"]) { $0.text = "hunter2" }])
        h.focus("a")
        h.send(.focusNext, .focus(firstResponder: "pw", moved: true),
               events: [.resigned("a"), .touched("a"), .became("pw"), .visited("pw"),
                        .textChanged(field: "pw", text: nil, length: 0, edit: TextEdit(0, 7, ""), selection: .caret(0)),
                        .focusChanged(from: "a", to: "pw")],
               state: { $0.focus("pw"); $0["a"].touched = true; $0["pw"].visited = true; $0["pw"].holds("", length: 0, selection: .caret(0)) })
    }

    func testPendingDemandFulfilledLaterAlsoClears() {
        var h = FormHarness(fields: [field("a", ["autoclears"]) { $0.enabled = false; $0.text = "old" }])
        h.send(.demandFocus(field: "a", demand: .become), .demand(.pending),
               events: [.demand("a", .pending, pending: .become)], state: { $0["a"].demand = .become })
        h.send(.setEnabled(field: "a", true),
               events: [.changed("a") { $0.enabled = true }, .became("a"), .visited("a"),
                        .textChanged(field: "a", text: "", length: 0, edit: TextEdit(0, 3, ""), selection: .caret(0)),
                        .focusChanged(from: nil, to: "a"), .demand("a", .fulfilled)],
               state: {
                   $0["a"].attributes.enabled = true; $0["a"].demand = nil
                   $0.focus("a"); $0["a"].visited = true; $0["a"].holds("", length: 0, selection: .caret(0))
               })
    }

    func testDeleteOnEmptySteppingBackClearsThePreviousField() {
        var h = FormHarness(fields: [field("a", ["autoclears"]) { $0.text = "1" }, field("b") { $0.deleteOnEmpty = .focusPrevious }])
        h.focus("b")
        h.send(.delete(field: nil), .edit(applied: false, reason: .empty),
               events: [.deletePressed(field: "b", textBefore: ""), .changeRejected(field: "b", reason: .empty),
                        .resigned("b"), .touched("b"), .became("a"), .visited("a"),
                        .textChanged(field: "a", text: "", length: 0, edit: TextEdit(0, 1, ""), selection: .caret(0)),
                        .focusChanged(from: "b", to: "a")],
               state: { $0.focus("a"); $0["b"].touched = true; $0["a"].visited = true; $0["a"].holds("", length: 0, selection: .caret(0)) })
    }
}
