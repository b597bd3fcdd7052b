import XCTest
@testable import FormdCore

/// `validate` and `submit`: values in order, masked ones withheld, disabled fields not
/// validated but submitted, focus to the first invalid field on failure.
final class SubmitTests: XCTestCase {
    func testValidSubmitResignsTheResponderThenReportsValuesInOrder() {
        var h = FormHarness(fields: [field("b") { $0.text = "2" }, field("a") { $0.text = "1" }, field("off") { $0.enabled = false; $0.text = "3" }])
        h.focus("a")
        let values = [FieldValue(field: "b", text: "2"), FieldValue(field: "a", text: "1"), FieldValue(field: "off", text: "3")]
        h.send(.submit(includeSecrets: false), .submission(valid: true, values: values, withheld: [], errors: []),
               events: [.resigned("a"), .touched("a"), .focusChanged(from: "a", to: nil), .submitted(values: values, withheld: [])],
               state: { $0.focus(nil); $0["a"].touched = true })
    }

    func testValidSubmitWithAStubbornResponderStillSubmits() {
        var h = FormHarness(fields: [field("a") { $0.canResignFirstResponder = false }])
        h.focus("a")
        h.send(.submit(includeSecrets: false), .submission(valid: true, values: [FieldValue(field: "a", text: "")], withheld: [], errors: []),
               events: [.submitted(values: [FieldValue(field: "a", text: "")], withheld: [])])
    }

    func testDisabledFieldsAreNotValidatedButAreSubmitted() {
        var h = FormHarness(fields: [field("off") { $0.enabled = false; $0.required = true }, field("ok")])
        h.send(.validate, .validation(valid: true, errors: []), events: [])
        let values = [FieldValue(field: "off", text: ""), FieldValue(field: "ok", text: "")]
        h.send(.submit(includeSecrets: false), .submission(valid: true, values: values, withheld: [], errors: []),
               events: [.submitted(values: values, withheld: [])])
        // Enabled again, it counts.
        h.send(.setEnabled(field: "off", true), events: [.changed("off") { $0.enabled = true }], state: { $0["off"].attributes.enabled = true })
        h.send(.validate, .validation(valid: false, errors: [FieldErrors(field: "off", errors: [ValidationError(.valueMissing, "Fill in this field.")])]), events: [])
    }

    func testInvalidSubmitListsErrorsInOrderAndFocusesTheFirstInvalidFieldThatCanTakeIt() {
        let errors = [FieldErrors(field: "label", errors: [ValidationError(.valueMissing, "Fill in this field.")]),
                      FieldErrors(field: "code", errors: [ValidationError(.tooShort, "Use at least 3 characters."), ValidationError(.patternMismatch, ValidationError.wrongForm)]),
                      FieldErrors(field: "name", errors: [ValidationError(.valueMissing, "Fill in this field.")])]
        var h = FormHarness(fields: [field("ok"), field("label") { $0.required = true; $0.canBecomeFirstResponder = false },
                                     field("code") { $0.text = "x"; $0.minLength = 3; $0.pattern = pattern("[0-9]+") },
                                     field("name") { $0.required = true }])
        h.focus("ok")
        h.send(.validate, .validation(valid: false, errors: errors), events: [])
        h.send(.submit(includeSecrets: false),
               .submission(valid: false, values: [FieldValue(field: "ok", text: ""), FieldValue(field: "label", text: ""),
                                                  FieldValue(field: "code", text: "x"), FieldValue(field: "name", text: "")],
                           withheld: [], errors: errors),
               events: [.submitFailed(errors: errors), .resigned("ok"), .touched("ok"), .became("code"), .visited("code"),
                        .focusChanged(from: "ok", to: "code")],
               state: { $0.focus("code"); $0["ok"].touched = true; $0["code"].visited = true })
        // Already on the first invalid field: failing again moves nothing.
        h.send(.submit(includeSecrets: false),
               .submission(valid: false, values: [FieldValue(field: "ok", text: ""), FieldValue(field: "label", text: ""),
                                                  FieldValue(field: "code", text: "x"), FieldValue(field: "name", text: "")],
                           withheld: [], errors: errors),
               events: [.submitFailed(errors: errors)])
    }

    func testInvalidSubmitCannotTakeFocusFromAStubbornResponder() {
        var h = FormHarness(fields: [field("a") { $0.canResignFirstResponder = false }, field("b") { $0.required = true }])
        h.focus("a")
        let errors = [FieldErrors(field: "b", errors: [ValidationError(.valueMissing, "Fill in this field.")])]
        h.send(.submit(includeSecrets: false),
               .submission(valid: false, values: [FieldValue(field: "a", text: ""), FieldValue(field: "b", text: "")], withheld: [], errors: errors),
               events: [.submitFailed(errors: errors)])
    }

    func testInvalidSecureFieldIsWithheldAndItsErrorsDoNotQuoteIt() {
        var h = FormHarness(fields: [field("pw", ["password"]) { $0.text = "abc"; $0.minLength = 8 }])
        let errors = [FieldErrors(field: "pw", errors: [ValidationError(.tooShort, "Use at least 8 characters.")])]
        h.send(.submit(includeSecrets: false), .submission(valid: false, values: [], withheld: ["pw"], errors: errors),
               events: [.submitFailed(errors: errors), .became("pw"), .visited("pw"), .focusChanged(from: nil, to: "pw")],
               state: { $0.focus("pw"); $0["pw"].visited = true })
    }
}
