import XCTest
@testable import FormdCore

/// Validation errors name their rule as HTML's ValidityState does and carry a sentence;
/// a pattern's is the field's `patternHint`, and never the pattern itself.
final class ValidityMessageTests: XCTestCase {
    private func validity(_ text: String, _ set: (inout FieldOptions) -> Void) throws -> Validity {
        let f = try Field(spec: field("f", [], set), presets: .builtIn)
        return Validity(text: text, length: text.count, attributes: f.attributes)
    }

    func testEachRuleHasItsNameAndASentence() throws {
        XCTAssertEqual(try validity("") { $0.required = true }.errors, [ValidationError(.valueMissing, "Fill in this field.")])
        XCTAssertEqual(try validity("ab") { $0.minLength = 3 }.errors, [ValidationError(.tooShort, "Use at least 3 characters.")])
        XCTAssertEqual(try validity("ab") { $0.minLength = 1; $0.maxLength = 1 }.errors, [ValidationError(.tooLong, "Use at most 1 character.")])
        XCTAssertEqual(try validity("x") { $0.pattern = pattern("[0-9]+") }.errors,
                       [ValidationError(.patternMismatch, "The text is not in the expected form.")])
        XCTAssertEqual(ValidityRule.allCases.map(\.rawValue), ["valueMissing", "tooShort", "tooLong", "patternMismatch"])
    }

    func testAPatternHintIsThePatternMismatchMessage() throws {
        let hinted = try validity("nope") { $0.pattern = pattern("[^@]+@[^@]+"); $0.patternHint = "An email address, like name@example.com." }
        XCTAssertEqual(hinted.errors, [ValidationError(.patternMismatch, "An email address, like name@example.com.")])
        // The hint says nothing unless the pattern fails.
        XCTAssertTrue(try validity("a@b") { $0.pattern = pattern("[^@]+@[^@]+"); $0.patternHint = "An email address." }.isValid)
        XCTAssertTrue(try validity("nope") { $0.patternHint = "An email address." }.isValid)
    }

    func testChangingTheHintOfAnInvalidFieldReportsTheNewMessage() {
        var h = FormHarness(fields: [field("a") { $0.text = "abc"; $0.pattern = pattern("[0-9]+") }])
        let digits = Validity(errors: [ValidationError(.patternMismatch, "Digits only.")])
        var hint = FieldOptions()
        hint.patternHint = "Digits only."
        h.send(.configureField("a", options: hint, configuration: nil),
               events: [.changed("a") { $0.patternHint = "Digits only." }, .validityChanged(field: "a", validity: digits)],
               state: { $0["a"].attributes.patternHint = "Digits only."; $0["a"].validity = digits })
        // On a valid field a new hint changes no validity.
        h.send(.setText(field: "a", text: "12"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: "12", length: 2, edit: TextEdit(0, 3, "12"), selection: .caret(2)),
                        .validityChanged(field: "a", validity: .valid)],
               state: { $0["a"].holds("12", length: 2, selection: .caret(2)); $0["a"].validity = .valid })
        hint.patternHint = .some(nil)
        h.send(.configureField("a", options: hint, configuration: nil),
               events: [.changed("a") { $0.patternHint = .some(nil) }],
               state: { $0["a"].attributes.patternHint = nil })
    }
}
