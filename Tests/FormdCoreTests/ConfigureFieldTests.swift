import XCTest
@testable import FormdCore

/// `configureField`: new own keys (and optionally a new preset list), reported as exactly
/// the effective changes.
final class ConfigureFieldTests: XCTestCase {
    func testReportsOnlyTheKeysWhoseEffectiveValueChanged() {
        var h = FormHarness(fields: [field("a") { $0.label = "Name"; $0.returnAction = .next }])
        h.send(.configureField("a", options: options { $0.label = "Name"; $0.returnAction = .resign; $0.placeholder = "Ann" },
                               configuration: nil),
               events: [.changed("a") { $0.placeholder = "Ann"; $0.returnAction = .resign }],
               state: { $0["a"].attributes.returnAction = .resign; $0["a"].attributes.placeholder = "Ann" })
        h.send(.configureField("a", options: options { $0.label = "Name" }, configuration: nil), events: [])
        h.send(.configureField("a", options: FieldOptions(), configuration: []), events: [])
    }

    func testOwnHintsMergeWithEarlierOwnHints() {
        var h = FormHarness(fields: [field("a") { $0.hints = ["x": "1", "y": "2"] }])
        h.send(.configureField("a", options: options { $0.hints = ["y": "3", "z": "4"] }, configuration: nil),
               events: [.changed("a") { $0.hints = ["x": "1", "y": "3", "z": "4"] }],
               state: { $0["a"].attributes.hints = ["x": "1", "y": "3", "z": "4"] })
    }

    func testNewConstraintsReportTheNewValidity() {
        var h = FormHarness(fields: [field("a") { $0.text = "abc" }])
        let mismatch = Validity(errors: [ValidationError(.patternMismatch, ValidationError.wrongForm)])
        h.send(.configureField("a", options: options { $0.pattern = pattern("[0-9]*") }, configuration: nil),
               events: [.changed("a") { $0.pattern = pattern("[0-9]*") }, .validityChanged(field: "a", validity: mismatch)],
               state: { $0["a"].attributes.pattern = pattern("[0-9]*"); $0["a"].validity = mismatch })
        h.send(.configureField("a", options: options { $0.pattern = .some(nil) }, configuration: nil),
               events: [.changed("a") { $0.pattern = .some(nil) }, .validityChanged(field: "a", validity: .valid)],
               state: { $0["a"].attributes.pattern = nil; $0["a"].validity = .valid })
    }

    func testANewInitialTextReplacesTheTextAndIsWhatResetReturnsTo() {
        var h = FormHarness(fields: [field("a") { $0.text = "old" }])
        h.send(.setText(field: "a", text: "typed"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: "typed", length: 5, edit: TextEdit(0, 2, "type"), selection: .caret(5))],
               state: { $0["a"].holds("typed", length: 5, selection: .caret(5)) })
        h.send(.configureField("a", options: options { $0.text = "new" }, configuration: nil),
               events: [.textChanged(field: "a", text: "new", length: 3, edit: TextEdit(0, 5, "new"), selection: .caret(3))],
               state: { $0["a"].holds("new", length: 3, selection: .caret(3), dirty: false) })
        h.send(.setText(field: "a", text: "again"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: "again", length: 5, edit: TextEdit(0, 3, "again"), selection: .caret(5))],
               state: { $0["a"].holds("again", length: 5, selection: .caret(5)) })
        // Decision: naming the initial text it already has changes nothing; the person's text stays.
        h.send(.configureField("a", options: options { $0.text = "new" }, configuration: nil), events: [])
    }

    /// Decision: a smaller maxLength does not cut the person's text; the field is invalid.
    func testMaxLengthBelowThePersonsTextMakesTheFieldInvalid() {
        let tooLong = Validity(errors: [ValidationError(.tooLong, "Use at most 2 characters.")])
        var h = FormHarness(fields: plainFields("a"))
        h.send(.setText(field: "a", text: "abcd"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: "abcd", length: 4, edit: TextEdit(0, 0, "abcd"), selection: .caret(4))],
               state: { $0["a"].holds("abcd", length: 4, selection: .caret(4)) })
        h.send(.configureField("a", options: options { $0.maxLength = 2 }, configuration: nil),
               events: [.changed("a") { $0.maxLength = 2 }, .validityChanged(field: "a", validity: tooLong)],
               state: { $0["a"].attributes.maxLength = 2; $0["a"].validity = tooLong })
        h.send(.validate, .validation(valid: false, errors: [FieldErrors(field: "a", errors: [ValidationError(.tooLong, "Use at most 2 characters.")])]), events: [])
        h.send(.delete(field: "a"), .edit(applied: true, reason: nil),
               events: [.deletePressed(field: "a", textBefore: "abcd"),
                        .textChanged(field: "a", text: "abc", length: 3, edit: TextEdit(3, 4, ""), selection: .caret(3))],
               state: { $0["a"].holds("abc", length: 3, selection: .caret(3)) })
    }

    /// Bug fixed: an initial text that came from a preset stayed (text and reset target)
    /// after the preset was dropped, even past the new maxLength.
    func testDroppingAPresetThatGaveTheInitialTextDropsThatText() {
        var h = FormHarness()
        h.define(fields: [field("a", ["greeting"])], presets: ["greeting": options { $0.text = "hello" }])
        h.send(.configureField("a", options: options { $0.maxLength = 3 }, configuration: []),
               events: [.fieldChanged(field: "a", changes: FieldChanges(options: options { $0.maxLength = 3 }, configuration: [])),
                        .textChanged(field: "a", text: "", length: 0, edit: TextEdit(0, 5, ""), selection: .caret(0))],
               state: {
                   $0["a"].configuration = []; $0["a"].attributes.maxLength = 3
                   $0["a"].holds("", length: 0, selection: .caret(0), dirty: false)
               })
        h.send(.reset, events: [.formReset(FormSnapshot(form: "default", seq: 4, firstResponder: nil, fields: [
            .expect("a", attributes: attributes { $0.maxLength = 3 }),
        ]))])
    }

    func testAddingAPresetThatGivesAnInitialTextSetsIt() {
        var h = FormHarness()
        h.define(fields: [field("a")], presets: ["greeting": options { $0.text = "hello" }])
        h.send(.configureField("a", options: FieldOptions(), configuration: ["greeting"]),
               events: [.fieldChanged(field: "a", changes: FieldChanges(configuration: ["greeting"])),
                        .textChanged(field: "a", text: "hello", length: 5, edit: TextEdit(0, 0, "hello"), selection: .caret(5))],
               state: { $0["a"].configuration = ["greeting"]; $0["a"].holds("hello", length: 5, selection: .caret(5), dirty: false) })
    }

    func testConfigurationKeepsVisitedTouchedAndPendingDemand() {
        var h = FormHarness(fields: [field("a"), field("b") { $0.enabled = false }])
        h.focus("a")
        h.send(.focusNext, .focus(firstResponder: "a", moved: false), events: [])
        h.send(.demandFocus(field: "b", demand: .become), .demand(.pending),
               events: [.demand("b", .pending, pending: .become)], state: { $0["b"].demand = .become })
        h.send(.configureField("a", options: options { $0.label = "A" }, configuration: ["email"]),
               events: [.fieldChanged(field: "a", changes: FieldChanges(options: options {
                   $0.label = "A"
                   $0.hints = ["keyboardType": #""emailAddress""#, "textContentType": #""emailAddress""#, "autocapitalization": #""none""#, "autocorrection": #""no""#]
               }, configuration: ["email"]))],
               state: {
                   $0["a"].attributes.label = "A"; $0["a"].configuration = ["email"]
                   $0["a"].attributes.hints = ["keyboardType": #""emailAddress""#, "textContentType": #""emailAddress""#,
                                               "autocapitalization": #""none""#, "autocorrection": #""no""#]
               })
        h.send(.configureField("b", options: options { $0.placeholder = "soon" }, configuration: nil),
               events: [.changed("b") { $0.placeholder = "soon" }], state: { $0["b"].attributes.placeholder = "soon" })
    }
}
