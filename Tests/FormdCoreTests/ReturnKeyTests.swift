import XCTest
@testable import FormdCore

/// Rule 4: `pressReturn F` (default: the first responder).
final class ReturnKeyTests: XCTestCase {
    private func returnKey(_ action: ReturnAction, _ set: @escaping (inout FieldOptions) -> Void = { _ in }) -> (inout FieldOptions) -> Void {
        { $0.returnAction = action; set(&$0) }
    }

    /// The outcome reported is the action carried out, name for name.
    func testEveryActionIsReportedAsTheOutcomeOfItsName() {
        for action in ReturnAction.allCases { XCTAssertEqual(ReturnOutcome(action).rawValue, action.rawValue) }
    }

    // MARK: ignored

    func testEnablesReturnKeyAutomaticallyIgnoresReturnOnAnEmptyField() {
        var h = FormHarness(fields: [field("a", [], returnKey(.next) { $0.enablesReturnKeyAutomatically = true }), field("b")])
        h.focus("a")
        h.send(.pressReturn(field: nil), .returnPressed(.ignored), events: [])
        h.send(.pressReturn(field: "a"), .returnPressed(.ignored), events: [])
        // With text, Return works again.
        h.send(.setText(field: "a", text: "x"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: "x", length: 1, edit: TextEdit(0, 0, "x"), selection: .caret(1))],
               state: { $0["a"].holds("x", length: 1, selection: .caret(1)) })
        h.send(.pressReturn(field: nil), .returnPressed(.next),
               events: [.returnPressed(field: "a", action: .next), .resigned("a"), .touched("a"), .became("b"), .visited("b"),
                        .focusChanged(from: "a", to: "b")],
               state: { $0.focus("b"); $0["a"].touched = true; $0["b"].visited = true })
    }

    /// Decision: Return in a disabled field has no effect at all, like the empty case.
    func testReturnInADisabledFieldIsIgnored() {
        var h = FormHarness(fields: [field("a") { $0.enabled = false; $0.returnAction = .submit }, field("b")])
        h.send(.pressReturn(field: "a"), .returnPressed(.ignored), events: [])
    }

    // MARK: next

    func testNextSkipsFieldsThatAreDisabledOrCannotBecome() {
        var h = FormHarness(fields: [field("a"), field("off") { $0.enabled = false },
                                     field("label") { $0.canBecomeFirstResponder = false }, field("d")])
        h.focus("a")
        h.send(.pressReturn(field: nil), .returnPressed(.next),
               events: [.returnPressed(field: "a", action: .next), .resigned("a"), .touched("a"), .became("d"), .visited("d"),
                        .focusChanged(from: "a", to: "d")],
               state: { $0.focus("d"); $0["a"].touched = true; $0["d"].visited = true })
    }

    func testNextWithNoFieldAfterResignsAndDoesNotWrap() {
        var h = FormHarness(fields: [field("a"), field("b"), field("off") { $0.enabled = false }])
        h.focus("b")
        h.send(.pressReturn(field: nil), .returnPressed(.next),
               events: [.returnPressed(field: "b", action: .next), .resigned("b"), .touched("b"), .focusChanged(from: "b", to: nil)],
               state: { $0.focus(nil); $0["b"].touched = true })
    }

    func testNextFromAResponderThatCannotResignOnlyReportsTheReturn() {
        var h = FormHarness(fields: [field("a") { $0.canResignFirstResponder = false }, field("b")])
        h.focus("a")
        h.send(.pressReturn(field: nil), .returnPressed(.next), events: [.returnPressed(field: "a", action: .next)])
    }

    func testLastFieldThatCannotResignKeepsFocusOnNext() {
        var h = FormHarness(fields: [field("a") { $0.canResignFirstResponder = false }])
        h.focus("a")
        h.send(.pressReturn(field: nil), .returnPressed(.next), events: [.returnPressed(field: "a", action: .next)])
    }

    /// Decision: Return in a named field that is not first responder still moves focus
    /// to the field after *it* (the current responder resigns).
    func testNextFromANamedFieldThatIsNotFirstResponder() {
        var h = FormHarness(fields: plainFields("a", "b", "c"))
        h.focus("c")
        h.send(.pressReturn(field: "a"), .returnPressed(.next),
               events: [.returnPressed(field: "a", action: .next), .resigned("c"), .touched("c"), .became("b"), .visited("b"),
                        .focusChanged(from: "c", to: "b")],
               state: { $0.focus("b"); $0["c"].touched = true; $0["b"].visited = true })
    }

    func testChainOfPresetsWalksThroughAndTheLastCloses() {
        var h = FormHarness(fields: [field("user", ["email", "partOfChain"]), field("pw", ["password", "lastOfChain"])])
        h.focus("user")
        h.send(.pressReturn(field: nil), .returnPressed(.next),
               events: [.returnPressed(field: "user", action: .next), .resigned("user"), .touched("user"),
                        .became("pw"), .visited("pw"), .focusChanged(from: "user", to: "pw")],
               state: { $0.focus("pw"); $0["user"].touched = true; $0["pw"].visited = true })
        h.send(.pressReturn(field: nil), .returnPressed(.resign),
               events: [.returnPressed(field: "pw", action: .resign), .resigned("pw"), .touched("pw"), .focusChanged(from: "pw", to: nil)],
               state: { $0.focus(nil); $0["pw"].touched = true })
    }

    // MARK: resign and none

    func testResignMakesTheFieldResign() {
        var h = FormHarness(fields: [field("a", [], returnKey(.resign)), field("b")])
        h.focus("a")
        h.send(.pressReturn(field: "a"), .returnPressed(.resign),
               events: [.returnPressed(field: "a", action: .resign), .resigned("a"), .touched("a"), .focusChanged(from: "a", to: nil)],
               state: { $0.focus(nil); $0["a"].touched = true })
    }

    func testResignRespectsCanResign() {
        var h = FormHarness(fields: [field("a", [], returnKey(.resign) { $0.canResignFirstResponder = false })])
        h.focus("a")
        h.send(.pressReturn(field: nil), .returnPressed(.resign), events: [.returnPressed(field: "a", action: .resign)])
    }

    func testResignInAFieldThatIsNotFirstResponderLeavesTheResponderAlone() {
        var h = FormHarness(fields: [field("a", [], returnKey(.resign)), field("b")])
        h.focus("b")
        h.send(.pressReturn(field: "a"), .returnPressed(.resign), events: [.returnPressed(field: "a", action: .resign)])
    }

    func testNoneOnlyReportsTheReturn() {
        var h = FormHarness(fields: [field("a", [], returnKey(.none)), field("b")])
        h.focus("a")
        h.send(.pressReturn(field: nil), .returnPressed(.none), events: [.returnPressed(field: "a", action: .none)])
    }

    // MARK: submit

    func testSubmitWhenValidResignsThenSubmits() {
        var h = FormHarness(fields: [field("name") { $0.required = true }, field("pw", ["password"], returnKey(.submit))])
        h.send(.setText(field: "name", text: "Ann"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "name", text: "Ann", length: 3, edit: TextEdit(0, 0, "Ann"), selection: .caret(3)),
                        .validityChanged(field: "name", validity: .valid)],
               state: { $0["name"].holds("Ann", length: 3, selection: .caret(3)); $0["name"].validity = .valid })
        h.focus("pw")
        h.send(.pressReturn(field: nil), .returnPressed(.submit),
               events: [.returnPressed(field: "pw", action: .submit), .resigned("pw"), .touched("pw"), .focusChanged(from: "pw", to: nil),
                        .submitted(values: [FieldValue(field: "name", text: "Ann")], withheld: ["pw"])],
               state: { $0.focus(nil); $0["pw"].touched = true })
    }

    func testSubmitWhenInvalidFailsAndFocusesTheFirstInvalidField() {
        var h = FormHarness(fields: [field("a"), field("code") { $0.minLength = 4 }, field("name") { $0.required = true },
                                     field("go", [], returnKey(.submit))])
        h.send(.setText(field: "code", text: "12"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "code", text: "12", length: 2, edit: TextEdit(0, 0, "12"), selection: .caret(2)),
                        .validityChanged(field: "code", validity: Validity(errors: [ValidationError(.tooShort, "Use at least 4 characters.")]))],
               state: { $0["code"].holds("12", length: 2, selection: .caret(2)); $0["code"].validity = Validity(errors: [ValidationError(.tooShort, "Use at least 4 characters.")]) })
        h.focus("go")
        h.send(.pressReturn(field: nil), .returnPressed(.submit),
               events: [.returnPressed(field: "go", action: .submit),
                        .submitFailed(errors: [FieldErrors(field: "code", errors: [ValidationError(.tooShort, "Use at least 4 characters.")]),
                                               FieldErrors(field: "name", errors: [ValidationError(.valueMissing, "Fill in this field.")])]),
                        .resigned("go"), .touched("go"), .became("code"), .visited("code"), .focusChanged(from: "go", to: "code")],
               state: { $0.focus("code"); $0["go"].touched = true; $0["code"].visited = true })
    }

    // MARK: errors

    func testNoFieldAndNoFirstResponderIsAnError() {
        var h = FormHarness(fields: plainFields("a"))
        h.sendFailing(.pressReturn(field: nil),
                      throws: .invalidParams("no field given and form \"default\" has no first responder; pass \"field\""))
        h.sendFailing(.pressReturn(field: "zz"), throws: .unknownField(field: "zz", form: "default"))
    }
}
