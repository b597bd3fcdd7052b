import XCTest
@testable import FormdCore

/// A secure, unrevealed field's text never appears in any event, nor in `getState` or
/// `submit` unless secrets are asked for. Revealing or unsecuring shows it on purpose.
final class SecretTests: XCTestCase {
    private let secret = "Zq9xKw"
    private let initialSecret = "Hv7pLm"

    /// No event of the scenario mentions any three-character piece of either secret.
    private func assertNoLeak(_ records: [EventRecord], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(records.isEmpty, file: file, line: line)
        let pieces = [secret, initialSecret].flatMap { s -> [String] in
            let c = Array(s)
            return (0...(c.count - 3)).map { String(c[$0..<$0 + 3]) }
        }
        for r in records {
            let printed = String(reflecting: r.event)
            for piece in pieces where printed.contains(piece) {
                XCTFail("event #\(r.seq) leaks \(piece): \(printed)", file: file, line: line)
            }
        }
    }

    func testNoEventOfABusySessionShowsTheSecret() {
        var h = FormHarness()
        h.define(fields: [field("user") { $0.required = true },
                          field("pw", ["password", "autoclears"]) { $0.text = initialSecret; $0.minLength = 4; $0.pattern = pattern("[A-Za-z0-9]+") },
                          field("pin", ["password"]) { $0.maxLength = 8; $0.deleteOnEmpty = .focusPrevious; $0.returnAction = .submit }])
        func run(_ command: FormCommand) { h.run(command) }
        run(.demandFocus(field: "pw", demand: .become))       // autoclears the initial secret
        run(.setText(field: "pw", text: secret))
        run(.setText(field: "pw", text: secret + "!"))        // breaks the pattern: validityChanged
        run(.delete(field: nil))
        run(.setText(field: "pw", text: "ab"))                // too short
        run(.setText(field: "pw", text: secret))
        run(.setText(field: "pin", text: secret + secret))    // over maxLength: rejected
        run(.setText(field: "pin", text: secret))
        run(.pressReturn(field: "pin"))                       // submit fails: user is required
        run(.setText(field: "user", text: "ann"))
        run(.submit(includeSecrets: true))                    // the result may hold secrets; the event may not
        run(.getState(includeSecrets: true))
        run(.configureField("pw", options: options { $0.label = "Password"; $0.maxLength = 10 }, configuration: ["password"]))
        run(.setEnabled(field: "pw", false))
        run(.addField(field("pw2", ["password"]) { $0.text = initialSecret }, after: "pw"))
        run(.reset)
        run(.setEnabled(field: "pw", true))
        run(.setText(field: "pw", text: secret))
        run(.removeField("pw"))
        run(.defineForm(fields: [field("again", ["password"]) { $0.text = secret }], presets: [:]))
        // The scenario really went through every kind of event that can carry text.
        let kinds = Set((h.log["default"] ?? []).map { caseName(short($0.event)) })
        XCTAssert(kinds.isSuperset(of: ["FormEvent.formDefined", "FormEvent.textChanged", "FormEvent.validityChanged",
                                        "FormEvent.deletePressed", "FormEvent.changeRejected", "FormEvent.submitFailed",
                                        "FormEvent.submitted", "FormEvent.fieldChanged", "FormEvent.fieldAdded",
                                        "FormEvent.formReset", "FormEvent.fieldRemoved"]), "\(kinds.sorted())")
        assertNoLeak(h.log["default"] ?? [])
    }

    /// The text-editing commands, in every position encoding, leak nothing either: edits
    /// and selections count bullets, cut and copy are refused, word and line deletes take
    /// the whole text.
    func testNoEventOfAnEditingSessionShowsTheSecret() {
        for encoding in PositionEncoding.allCases {
            var h = FormHarness(encoding: encoding)
            h.define(fields: [field("pw", ["password"]) { $0.text = initialSecret; $0.inputFilter = pattern("[A-Za-z0-9 ]") },
                              field("next")])
            let w = encoding == .utf8 ? 3 : 1
            func run(_ command: FormCommand) { h.run(command) }
            run(.demandFocus(field: "pw", demand: .become))
            run(.insertText(field: nil, text: "x"))
            run(.moveCaret(field: nil, to: .start, extend: false))
            run(.moveCaret(field: nil, to: .wordRight, extend: true))
            run(.insertText(field: nil, text: secret))                  // over the selection
            run(.insertText(field: nil, text: secret + "!"))            // refused by the filter
            run(.select(field: nil, start: w, end: 4 * w))
            run(.editAction(field: nil, action: .copy, text: nil))      // refused: masked
            run(.editAction(field: nil, action: .cut, text: nil))       // refused: masked
            run(.editAction(field: nil, action: .paste, text: "ab " + secret))
            run(.delete(field: nil, direction: .backward, unit: .word))
            run(.editAction(field: nil, action: .paste, text: secret + " " + initialSecret))
            run(.moveCaret(field: nil, to: .left, extend: false))
            run(.delete(field: nil, direction: .forward, unit: .line))
            run(.undo(field: nil))
            run(.undo(field: nil))
            run(.redo(field: nil))
            run(.editAction(field: nil, action: .selectAll, text: nil))
            run(.editAction(field: nil, action: .delete, text: nil))
            run(.undo(field: nil))
            run(.setText(field: "pw", text: secret))
            run(.configureField("pw", options: options { $0.maxLength = 20 }, configuration: nil))
            let kinds = Set((h.log["default"] ?? []).map { caseName(short($0.event)) })
            XCTAssert(kinds.isSuperset(of: ["FormEvent.textChanged", "FormEvent.selectionChanged", "FormEvent.deletePressed",
                                            "FormEvent.changeRejected"]), "\(kinds.sorted())")
            assertNoLeak(h.log["default"] ?? [])
            // And the masked field's state says only bullets, positions over bullets.
            let state = h.getState(includeSecrets: false)?["pw"]
            XCTAssertEqual(state?.text, nil)
            XCTAssertEqual(state?.display, String(repeating: "•", count: secret.count))
            XCTAssertEqual(state?.selection, .caret(secret.count * w))
        }
    }

    func testGetStateWithholdsMaskedTextUnlessSecretsAreAsked() {
        var h = FormHarness(fields: [field("user") { $0.text = "ann" }, field("pw", ["password"]) { $0.text = secret }])
        let withSecrets = h.getState(includeSecrets: true)
        let without = h.getState(includeSecrets: false)
        XCTAssertEqual(withSecrets?["pw"].text, secret)
        XCTAssertEqual(without?["pw"].text, nil)
        XCTAssertEqual(without?["pw"].display, "••••••")
        XCTAssertEqual(without?["user"].text, "ann")
        var expectedWithout = withSecrets
        expectedWithout?["pw"].text = nil
        XCTAssertEqual(without, expectedWithout)
    }

    func testSubmitWithholdsMaskedValuesUnlessSecretsAreAsked() {
        var h = FormHarness(fields: [field("user") { $0.text = "ann" }, field("pw", ["password"]) { $0.text = secret },
                                     field("note") { $0.text = "hi" }])
        let event = FormEvent.submitted(values: [FieldValue(field: "user", text: "ann"), FieldValue(field: "note", text: "hi")],
                                        withheld: ["pw"])
        h.send(.submit(includeSecrets: false),
               .submission(valid: true, values: [FieldValue(field: "user", text: "ann"), FieldValue(field: "note", text: "hi")],
                           withheld: ["pw"], errors: []),
               events: [event])
        h.send(.submit(includeSecrets: true),
               .submission(valid: true, values: [FieldValue(field: "user", text: "ann"), FieldValue(field: "pw", text: secret),
                                                 FieldValue(field: "note", text: "hi")],
                           withheld: [], errors: []),
               events: [event])
    }

    func testRevealingShowsTheTextAndHidingMasksItAgain() {
        var h = FormHarness(fields: [field("pw", ["password"]) { $0.text = secret }])
        h.send(.setRevealed(field: "pw", true),
               events: [.fieldChanged(field: "pw", changes: FieldChanges(options: options { $0.revealed = true },
                                                                         display: secret, text: secret, selection: .caret(6)))],
               state: { $0["pw"].attributes.revealed = true; $0["pw"].display = secret })
        h.send(.setText(field: "pw", text: "abc"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "pw", text: "abc", length: 3, edit: TextEdit(0, 6, "abc"), selection: .caret(3))],
               state: { $0["pw"].holds("abc", length: 3, selection: .caret(3)) })
        // Revealed: submitted like any visible text.
        h.send(.submit(includeSecrets: false),
               .submission(valid: true, values: [FieldValue(field: "pw", text: "abc")], withheld: [], errors: []),
               events: [.submitted(values: [FieldValue(field: "pw", text: "abc")], withheld: [])])
        h.send(.setRevealed(field: "pw", false),
               events: [.fieldChanged(field: "pw", changes: FieldChanges(options: options { $0.revealed = false },
                                                                         display: "•••", text: nil, selection: .caret(3)))],
               state: { $0["pw"].attributes.revealed = false; $0["pw"].display = "•••" })
    }

    func testSetSecureMasksAndUnmasks() {
        var h = FormHarness(fields: [field("a") { $0.text = "abcd" }])
        h.send(.setSecure(field: "a", true),
               events: [.fieldChanged(field: "a", changes: FieldChanges(options: options { $0.secure = true },
                                                                        display: "••••", text: nil, selection: .caret(4)))],
               state: { $0["a"].attributes.secure = true; $0["a"].display = "••••" })
        h.send(.setText(field: "a", text: "xyz"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: nil, length: 3, edit: TextEdit(0, 4, "•••"), selection: .caret(3))],
               state: { $0["a"].holds("xyz", display: "•••", length: 3, selection: .caret(3)) })
        h.send(.setSecure(field: "a", false),
               events: [.fieldChanged(field: "a", changes: FieldChanges(options: options { $0.secure = false },
                                                                        display: "xyz", text: "xyz", selection: .caret(3)))],
               state: { $0["a"].attributes.secure = false; $0["a"].display = "xyz" })
    }

    func testRevealOrSecureThatDoesNotChangeMaskingReportsOnlyTheKey() {
        var h = FormHarness(fields: [field("a") { $0.text = "abcd" }])
        h.send(.setRevealed(field: "a", true), events: [.changed("a") { $0.revealed = true }],
               state: { $0["a"].attributes.revealed = true })
        // Secure but revealed: still shown, so no display or text in the change.
        h.send(.setSecure(field: "a", true), events: [.changed("a") { $0.secure = true }],
               state: { $0["a"].attributes.secure = true })
        h.send(.setSecure(field: "a", true), events: [])
    }

    // MARK: The edit of a masked field

    // A masked field's `textChanged.edit` is the edit window, untrimmed: the replaced
    // range widened by one character on each side where there is one, all of it given
    // as bullets. A minimal diff would be trimmed by comparing the hidden characters with
    // the new ones, and where the trimming stopped would tell which of them are equal.
    // The window depends only on positions and lengths, which the display shows anyway.

    /// Before: "password1" → "password2" reported {8, 9, "•"}, so the hidden text began
    /// with the eight characters sent. Now `setText` reports the whole text, 0..<9, and
    /// "passwordA" or any other nine characters give the very same event.
    func testSetTextOnAMaskedFieldReportsTheWholeTextWhateverItHid() {
        for encoding in PositionEncoding.allCases {
            let w = encoding.bulletWidth
            var emitted: [[FormEvent]] = []
            for hidden in ["password1", "passwordA", "Zq9xKwHv7"] {
                var h = FormHarness(fields: [field("pw", ["password"]) { $0.text = hidden }], encoding: encoding)
                let records = h.send(.setText(field: "pw", text: "password2"), .edit(applied: true, reason: nil),
                                     events: [.textChanged(field: "pw", text: nil, length: 9, edit: TextEdit(0, 9 * w, "•••••••••"),
                                                           selection: .caret(9 * w))],
                                     state: { $0["pw"].holds("password2", display: "•••••••••", length: 9, selection: .caret(9 * w)) })
                emitted.append(records.map(\.event))
            }
            XCTAssertEqual(emitted[0], emitted[1], "\(encoding)")
            XCTAssertEqual(emitted[0], emitted[2], "\(encoding)")
        }
    }

    /// Before: typing "a" at caret 1 of hidden "pa" reported the insert at 2 ("pa" +
    /// "a": the hidden "a" equals the typed one), of hidden "pb" at 1. Now both report
    /// the window around the caret, characters 0..<2 becoming three bullets; so does the
    /// undo, characters 0..<3 becoming two.
    func testTypingInAMaskedFieldReportsTheWindowWhateverTheNeighboursAre() {
        for encoding in PositionEncoding.allCases {
            let w = encoding.bulletWidth
            var emitted: [[FormEvent]] = []
            for hidden in ["pa", "pb", "aa", "ap"] {
                let typed = String(hidden.prefix(1)) + "a" + String(hidden.dropFirst())
                var h = FormHarness(fields: [field("pw", ["password"]) { $0.text = hidden }], encoding: encoding)
                h.send(.select(field: "pw", start: w, end: w), .selection(.caret(w)),
                       events: [.selectionChanged(field: "pw", selection: .caret(w))], state: { $0["pw"].selection = .caret(w) })
                var records = h.send(.insertText(field: "pw", text: "a"), .edit(applied: true, reason: nil),
                                     events: [.textChanged(field: "pw", text: nil, length: 3, edit: TextEdit(0, 2 * w, "•••"),
                                                           selection: .caret(2 * w))],
                                     state: { $0["pw"].holds(typed, display: "•••", length: 3, selection: .caret(2 * w)) })
                records += h.send(.undo(field: "pw"), .edit(applied: true, reason: nil),
                                  events: [.textChanged(field: "pw", text: nil, length: 2, edit: TextEdit(0, 3 * w, "••"),
                                                        selection: .caret(w))],
                                  state: { $0["pw"].holds(hidden, display: "••", length: 2, selection: .caret(w), dirty: false) })
                emitted.append(records.map(\.event))
            }
            for other in emitted.dropFirst() { XCTAssertEqual(emitted[0], other, "\(encoding)") }
        }
    }

    /// Shown text keeps the minimal diff: nothing is hidden, and a client patching its
    /// copy wants the smallest edit.
    func testARevealedSecureFieldKeepsTheMinimalEdit() {
        var h = FormHarness(fields: [field("pw", ["password"]) { $0.text = "password1"; $0.revealed = true }])
        h.send(.setText(field: "pw", text: "password2"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "pw", text: "password2", length: 9, edit: TextEdit(8, 9, "2"), selection: .caret(9))],
               state: { $0["pw"].holds("password2", length: 9, selection: .caret(9)) })
        h.send(.select(field: "pw", start: 1, end: 1), .selection(.caret(1)),
               events: [.selectionChanged(field: "pw", selection: .caret(1))], state: { $0["pw"].selection = .caret(1) })
        h.send(.insertText(field: "pw", text: "a"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "pw", text: "paassword2", length: 10, edit: TextEdit(2, 2, "a"), selection: .caret(2))],
               state: { $0["pw"].holds("paassword2", length: 10, selection: .caret(2)) })
    }

    func testFieldAddedAndStateEventsWithholdTheSecret() {
        var h = FormHarness(fields: plainFields("a"))
        let added = FieldSnapshot.expect("pw", configuration: ["password"], attributes: h.passwordAttributes,
                                         text: nil, display: "••••••", length: 6, selection: .caret(6), dirty: false)
        var stored = added
        stored.text = secret
        h.send(.addField(field("pw", ["password"]) { $0.text = secret }, after: nil), events: [.fieldAdded(added, index: 1)],
               state: { $0.fields.append(stored) })
        h.send(.reset, events: [.formReset(FormSnapshot(form: "default", seq: 3, firstResponder: nil, fields: [.expect("a"), added]))])
    }
}

extension FormHarness {
    var passwordAttributes: FieldAttributes {
        attributes { $0.secure = true; $0.hints = ["textContentType": "password", "autocapitalization": "none", "autocorrection": "no"] }
    }
}
