import XCTest
@testable import FormdCore

/// visited, touched, dirty, and `reset` which returns every field to its initial state.
final class FieldProgressTests: XCTestCase {
    func testVisitedOnFirstFocusTouchedOnFirstResignAfterIt() {
        var h = FormHarness(fields: plainFields("a", "b"))
        h.send(.focusNext, .focus(firstResponder: "a", moved: true),
               events: [.became("a"), .visited("a"), .focusChanged(from: nil, to: "a")],
               state: { $0.focus("a"); $0["a"].visited = true })
        h.send(.focusNext, .focus(firstResponder: "b", moved: true),
               events: [.resigned("a"), .touched("a"), .became("b"), .visited("b"), .focusChanged(from: "a", to: "b")],
               state: { $0.focus("b"); $0["a"].touched = true; $0["b"].visited = true })
        h.send(.focusNext, .focus(firstResponder: "a", moved: true),
               events: [.resigned("b"), .touched("b"), .became("a"), .focusChanged(from: "b", to: "a")],
               state: { $0.focus("a"); $0["b"].touched = true })
        h.send(.focusNext, .focus(firstResponder: "b", moved: true),
               events: [.resigned("a"), .became("b"), .focusChanged(from: "a", to: "b")],
               state: { $0.focus("b") })
    }

    func testEditingWithoutFocusNeitherVisitsNorTouches() {
        var h = FormHarness(fields: plainFields("a"))
        h.send(.setText(field: "a", text: "x"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: "x", length: 1, edit: TextEdit(0, 0, "x"), selection: .caret(1))],
               state: { $0["a"].holds("x", length: 1, selection: .caret(1)) })
    }

    func testDirtyComparesWithTheInitialText() {
        var h = FormHarness(fields: [field("a") { $0.text = "ab" }])
        h.send(.delete(field: "a"), .edit(applied: true, reason: nil),
               events: [.deletePressed(field: "a", textBefore: "ab"),
                        .textChanged(field: "a", text: "a", length: 1, edit: TextEdit(1, 2, ""), selection: .caret(1))],
               state: { $0["a"].holds("a", length: 1, selection: .caret(1), dirty: true) })
        h.send(.setText(field: "a", text: "ab"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: "ab", length: 2, edit: TextEdit(1, 1, "b"), selection: .caret(2))],
               state: { $0["a"].holds("ab", length: 2, selection: .caret(2), dirty: false) })
    }

    func testResetReturnsEveryFieldToItsInitialStateInOneEvent() {
        let required = Validity(errors: [ValidationError(.valueMissing, "Fill in this field.")])
        var h = FormHarness(fields: [field("name") { $0.required = true }, field("city") { $0.text = "Oslo" },
                                     field("pw", ["password"]), field("later") { $0.enabled = false }])
        h.send(.setText(field: "name", text: "Ann"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "name", text: "Ann", length: 3, edit: TextEdit(0, 0, "Ann"), selection: .caret(3)),
                        .validityChanged(field: "name", validity: .valid)],
               state: { $0["name"].holds("Ann", length: 3, selection: .caret(3)); $0["name"].validity = .valid })
        h.send(.setText(field: "pw", text: "pass"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "pw", text: nil, length: 4, edit: TextEdit(0, 0, "••••"), selection: .caret(4))],
               state: { $0["pw"].holds("pass", display: "••••", length: 4, selection: .caret(4)) })
        h.focus("city")
        h.send(.setText(field: "city", text: ""), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "city", text: "", length: 0, edit: TextEdit(0, 4, ""), selection: .caret(0))],
               state: { $0["city"].holds("", length: 0, selection: .caret(0)) })
        h.send(.focusPrevious, .focus(firstResponder: "name", moved: true),
               events: [.resigned("city"), .touched("city"), .became("name"), .visited("name"), .focusChanged(from: "city", to: "name")],
               state: { $0.focus("name"); $0["city"].touched = true; $0["name"].visited = true })
        h.send(.demandFocus(field: "later", demand: .become), .demand(.pending),
               events: [.demand("later", .pending, pending: .become)], state: { $0["later"].demand = .become })

        let initial: [FieldSnapshot] = [
            .expect("name", attributes: attributes { $0.required = true }, validity: required),
            .expect("city", text: "Oslo", display: "Oslo", length: 4, selection: .caret(4)),
            .expect("pw", configuration: ["password"], attributes: h.passwordAttributes),
            .expect("later", attributes: attributes { $0.enabled = false }),
        ]
        var withheld = initial
        withheld[2].text = nil
        h.send(.reset, events: [.formReset(FormSnapshot(form: "default", seq: h.nextSeq(), firstResponder: nil, fields: withheld))],
               state: { $0.fields = initial; $0.focus(nil) })
        // The pending demand went with the reset: enabling the field later does not focus it.
        h.send(.setEnabled(field: "later", true), events: [.changed("later") { $0.enabled = true }],
               state: { $0["later"].attributes.enabled = true })
        // And visits count afresh.
        h.focus("name")
    }

    /// Decision: reset is total; even a responder that refuses to resign loses focus.
    func testResetClearsAStubbornResponder() {
        var h = FormHarness(fields: [field("a") { $0.canResignFirstResponder = false }])
        h.focus("a")
        h.send(.reset, events: [.formReset(FormSnapshot(form: "default", seq: h.nextSeq(), firstResponder: nil, fields: [
            .expect("a", attributes: attributes { $0.canResignFirstResponder = false }),
        ]))], state: { $0.focus(nil); $0["a"].visited = false })
    }
}
