import XCTest
@testable import FormdCore

/// Rule 6: `setText` is a user edit; only `maxLength` and `enabled` can refuse it,
/// `required`, `minLength` and `pattern` only make the field invalid.
final class SetTextTests: XCTestCase {
    private static let applied = CommandResult.edit(applied: true, reason: nil)

    func testEditReplacesTheTextAndMakesTheFieldDirty() {
        var h = FormHarness(fields: [field("a") { $0.text = "init" }])
        h.send(.setText(field: "a", text: "new"), Self.applied,
               events: [.textChanged(field: "a", text: "new", length: 3, edit: TextEdit(0, 4, "new"), selection: .caret(3))],
               state: { $0["a"].holds("new", length: 3, selection: .caret(3), dirty: true) })
        h.send(.setText(field: "a", text: "init"), Self.applied,
               events: [.textChanged(field: "a", text: "init", length: 4, edit: TextEdit(0, 3, "init"), selection: .caret(4))],
               state: { $0["a"].holds("init", length: 4, selection: .caret(4), dirty: false) })
    }

    /// Decision: setting the text it already has is applied but reports nothing.
    func testSettingTheSameTextIsAppliedSilently() {
        var h = FormHarness(fields: [field("a") { $0.text = "same" }])
        h.send(.setText(field: "a", text: "same"), Self.applied, events: [])
    }

    /// Decision: the same text with the caret elsewhere only puts the caret at the end,
    /// and leaves no undo step.
    func testSettingTheSameTextElsewhereOnlyMovesTheCaretToTheEnd() {
        var h = FormHarness(fields: [field("a") { $0.text = "same" }])
        h.send(.select(field: "a", start: 0, end: 2), .selection(TextRange(0, 2)),
               events: [.selectionChanged(field: "a", selection: TextRange(0, 2))], state: { $0["a"].selection = TextRange(0, 2) })
        h.send(.setText(field: "a", text: "same"), Self.applied,
               events: [.selectionChanged(field: "a", selection: .caret(4))], state: { $0["a"].selection = .caret(4) })
        h.send(.undo(field: "a"), .edit(applied: false, reason: .nothingToUndo), events: [])
    }

    /// Bug fixed: texts were compared as Swift strings, which are equal when canonically
    /// equivalent, so a decomposed "é" could not replace a composed one.
    func testACanonicallyEquivalentTextIsStillAChange() {
        var h = FormHarness(fields: [field("a") { $0.text = "caf\u{E9}" }])
        h.send(.setText(field: "a", text: "cafe\u{301}"), Self.applied,
               events: [.textChanged(field: "a", text: "cafe\u{301}", length: 4, edit: TextEdit(3, 4, "e\u{301}"), selection: .caret(4))],
               state: { $0["a"].holds("cafe\u{301}", length: 4, selection: .caret(4)) })
        XCTAssert(h.getState(includeSecrets: true)?["a"].text?.unicodeScalars.elementsEqual("cafe\u{301}".unicodeScalars) == true)
        h.send(.setText(field: "a", text: "cafe\u{301}"), Self.applied, events: [])
    }

    func testDisabledFieldRefusesTheEdit() {
        var h = FormHarness(fields: [field("a") { $0.enabled = false; $0.text = "keep" }])
        h.send(.setText(field: "a", text: "new"), .edit(applied: false, reason: .disabled),
               events: [.changeRejected(field: "a", reason: .disabled)])
    }

    func testMaxLengthCountsCharactersNotScalars() {
        var h = FormHarness(fields: [field("a") { $0.maxLength = 3 }])
        let three = "e\u{301}👍🏽🇫🇷"   // 3 characters, 6 scalars
        h.send(.setText(field: "a", text: three), Self.applied,
               events: [.textChanged(field: "a", text: three, length: 3, edit: TextEdit(0, 0, three), selection: .caret(3))],
               state: { $0["a"].holds(three, length: 3, selection: .caret(3)) })
        h.send(.setText(field: "a", text: three + "x"), .edit(applied: false, reason: .maxLength),
               events: [.changeRejected(field: "a", reason: .maxLength)])
        h.send(.setText(field: "a", text: "abc"), Self.applied,
               events: [.textChanged(field: "a", text: "abc", length: 3, edit: TextEdit(0, 3, "abc"), selection: .caret(3))],
               state: { $0["a"].holds("abc", length: 3, selection: .caret(3)) })
    }

    func testMaxLengthZeroOnlyAcceptsEmptyText() {
        var h = FormHarness(fields: [field("a") { $0.maxLength = 0 }])
        h.send(.setText(field: "a", text: "x"), .edit(applied: false, reason: .maxLength),
               events: [.changeRejected(field: "a", reason: .maxLength)])
        h.send(.setText(field: "a", text: ""), Self.applied, events: [])
    }

    func testDisabledIsCheckedBeforeMaxLength() {
        var h = FormHarness(fields: [field("a") { $0.enabled = false; $0.maxLength = 1 }])
        h.send(.setText(field: "a", text: "too long"), .edit(applied: false, reason: .disabled),
               events: [.changeRejected(field: "a", reason: .disabled)])
    }

    func testRequiredOnlyMakesTheFieldInvalid() {
        let required = Validity(errors: [ValidationError(.valueMissing, "Fill in this field.")])
        var h = FormHarness(fields: [field("a") { $0.required = true }])
        XCTAssertEqual(h.expected["default"]?["a"].validity, required)
        h.send(.setText(field: "a", text: "x"), Self.applied,
               events: [.textChanged(field: "a", text: "x", length: 1, edit: TextEdit(0, 0, "x"), selection: .caret(1)),
                        .validityChanged(field: "a", validity: .valid)],
               state: { $0["a"].holds("x", length: 1, selection: .caret(1)); $0["a"].validity = .valid })
        h.send(.setText(field: "a", text: ""), Self.applied,
               events: [.textChanged(field: "a", text: "", length: 0, edit: TextEdit(0, 1, ""), selection: .caret(0)),
                        .validityChanged(field: "a", validity: required)],
               state: { $0["a"].holds("", length: 0, selection: .caret(0), dirty: false); $0["a"].validity = required })
    }

    func testMinLengthOnlyMakesTheFieldInvalidAndValidityIsReportedOnlyOnChange() {
        let tooShort = Validity(errors: [ValidationError(.tooShort, "Use at least 3 characters.")])
        var h = FormHarness(fields: [field("a") { $0.minLength = 3 }])
        h.send(.setText(field: "a", text: "a"), Self.applied,
               events: [.textChanged(field: "a", text: "a", length: 1, edit: TextEdit(0, 0, "a"), selection: .caret(1)),
                        .validityChanged(field: "a", validity: tooShort)],
               state: { $0["a"].holds("a", length: 1, selection: .caret(1)); $0["a"].validity = tooShort })
        h.send(.setText(field: "a", text: "ab"), Self.applied,
               events: [.textChanged(field: "a", text: "ab", length: 2, edit: TextEdit(1, 1, "b"), selection: .caret(2))],
               state: { $0["a"].holds("ab", length: 2, selection: .caret(2)) })
        h.send(.setText(field: "a", text: "ab👍🏽"), Self.applied,
               events: [.textChanged(field: "a", text: "ab👍🏽", length: 3, edit: TextEdit(2, 2, "👍🏽"), selection: .caret(3)),
                        .validityChanged(field: "a", validity: .valid)],
               state: { $0["a"].holds("ab👍🏽", length: 3, selection: .caret(3)); $0["a"].validity = .valid })
    }

    func testSeveralBrokenConstraintsAreListedInAFixedOrder() {
        let both = Validity(errors: [ValidationError(.tooShort, "Use at least 2 characters."), ValidationError(.patternMismatch, ValidationError.wrongForm)])
        var h = FormHarness(fields: [field("a") { $0.minLength = 2; $0.pattern = pattern("x") }])
        h.send(.setText(field: "a", text: "y"), Self.applied,
               events: [.textChanged(field: "a", text: "y", length: 1, edit: TextEdit(0, 0, "y"), selection: .caret(1)),
                        .validityChanged(field: "a", validity: both)],
               state: { $0["a"].holds("y", length: 1, selection: .caret(1)); $0["a"].validity = both })
    }

    func testMessagesSaySingularForALimitOfOne() {
        XCTAssertEqual(Validity(text: "", length: 0, attributes: attributes { $0.required = true }).errors, [ValidationError(.valueMissing, "Fill in this field.")])
        XCTAssertEqual(Validity(text: "a", length: 1, attributes: attributes { $0.minLength = 3 }).errors, [ValidationError(.tooShort, "Use at least 3 characters.")])
        XCTAssertEqual(Validity(text: "ab", length: 2, attributes: attributes { $0.maxLength = 1 }).errors, [ValidationError(.tooLong, "Use at most 1 character.")])
        XCTAssertEqual(Validity(text: "ab", length: 2, attributes: attributes { $0.maxLength = 0 }).errors, [ValidationError(.tooLong, "Use at most 0 characters.")])
    }

    func testPatternMustMatchTheWholeText() {
        let mismatch = Validity(errors: [ValidationError(.patternMismatch, ValidationError.wrongForm)])
        var h = FormHarness(fields: [field("a") { $0.pattern = pattern("[0-9]+") }])
        h.send(.setText(field: "a", text: "12a"), Self.applied,
               events: [.textChanged(field: "a", text: "12a", length: 3, edit: TextEdit(0, 0, "12a"), selection: .caret(3)),
                        .validityChanged(field: "a", validity: mismatch)],
               state: { $0["a"].holds("12a", length: 3, selection: .caret(3)); $0["a"].validity = mismatch })
        h.send(.setText(field: "a", text: "a12"), Self.applied,
               events: [.textChanged(field: "a", text: "a12", length: 3, edit: TextEdit(0, 3, "a12"), selection: .caret(3))],
               state: { $0["a"].holds("a12", length: 3, selection: .caret(3)) })
        h.send(.setText(field: "a", text: "123"), Self.applied,
               events: [.textChanged(field: "a", text: "123", length: 3, edit: TextEdit(0, 3, "123"), selection: .caret(3)),
                        .validityChanged(field: "a", validity: .valid)],
               state: { $0["a"].holds("123", length: 3, selection: .caret(3)); $0["a"].validity = .valid })
    }

    func testEmptyOptionalFieldIsValidWhateverItsConstraints() {
        let h = FormHarness(fields: [field("a") { $0.minLength = 3; $0.pattern = pattern("[0-9]+") }])
        XCTAssertEqual(h.expected["default"]?["a"].validity, .valid)
    }

    func testMaxLengthRejectionOnASecureFieldLeaksNothing() {
        var h = FormHarness(fields: [field("pw", ["password"]) { $0.maxLength = 4 }])
        h.send(.setText(field: "pw", text: "abcd"), Self.applied,
               events: [.textChanged(field: "pw", text: nil, length: 4, edit: TextEdit(0, 0, "••••"), selection: .caret(4))],
               state: { $0["pw"].holds("abcd", display: "••••", length: 4, selection: .caret(4)) })
        h.send(.setText(field: "pw", text: "abcde"), .edit(applied: false, reason: .maxLength),
               events: [.changeRejected(field: "pw", reason: .maxLength)])
    }

    func testUnknownFieldThrows() {
        var h = FormHarness(fields: plainFields("a"))
        h.sendFailing(.setText(field: "zz", text: "x"), throws: .unknownField(field: "zz", form: "default"))
    }
}
