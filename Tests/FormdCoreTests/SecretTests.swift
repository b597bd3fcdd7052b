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

    /// In character positions a caret counts the same over the text and over the display,
    /// so switching masking reports no selection (for the other encodings see
    /// `testAMaskingSwitchReportsTheSelectionOnlyWhereItsPositionsMove`).
    func testRevealingShowsTheTextAndHidingMasksItAgain() {
        var h = FormHarness(fields: [field("pw", ["password"]) { $0.text = secret }])
        h.send(.setRevealed(field: "pw", true),
               events: [.fieldChanged(field: "pw", changes: FieldChanges(options: options { $0.revealed = true },
                                                                         display: secret, text: secret))],
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
                                                                         display: "•••", text: nil))],
               state: { $0["pw"].attributes.revealed = false; $0["pw"].display = "•••" })
    }

    func testSetSecureMasksAndUnmasks() {
        var h = FormHarness(fields: [field("a") { $0.text = "abcd" }])
        h.send(.setSecure(field: "a", true),
               events: [.fieldChanged(field: "a", changes: FieldChanges(options: options { $0.secure = true },
                                                                        display: "••••", text: nil))],
               state: { $0["a"].attributes.secure = true; $0["a"].display = "••••" })
        h.send(.setText(field: "a", text: "xyz"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: nil, length: 3, edit: TextEdit(0, 4, "•••"), selection: .caret(3))],
               state: { $0["a"].holds("xyz", display: "•••", length: 3, selection: .caret(3)) })
        h.send(.setSecure(field: "a", false),
               events: [.fieldChanged(field: "a", changes: FieldChanges(options: options { $0.secure = false },
                                                                        display: "xyz", text: "xyz"))],
               state: { $0["a"].attributes.secure = false; $0["a"].display = "xyz" })
    }

    /// Switching masking restates the selection (over the text, or over the display: one
    /// bullet is 3 units in UTF-8, 1 in the others) only where that moves it. Worked out by
    /// hand per encoding: character, utf-8, utf-16, utf-32.
    func testAMaskingSwitchReportsTheSelectionOnlyWhereItsPositionsMove() {
        struct Case {
            var text: String
            /// Selected before the switch, in each encoding's units of the visible text;
            /// nil: the caret stays at the end, where the field starts.
            var select: [PositionEncoding: TextRange]?
            var shown: [PositionEncoding: TextRange]
            var masked: [PositionEncoding: TextRange]
        }
        let cases = [
            // ASCII: a character is one unit everywhere but a bullet is three bytes.
            Case(text: "abc", select: nil,
                 shown: [.character: .caret(3), .utf8: .caret(3), .utf16: .caret(3), .utf32: .caret(3)],
                 masked: [.character: .caret(3), .utf8: .caret(9), .utf16: .caret(3), .utf32: .caret(3)]),
            // CJK: three bytes each, like a bullet, and one UTF-16 or UTF-32 unit: never moves.
            Case(text: "漢字", select: nil,
                 shown: [.character: .caret(2), .utf8: .caret(6), .utf16: .caret(2), .utf32: .caret(2)],
                 masked: [.character: .caret(2), .utf8: .caret(6), .utf16: .caret(2), .utf32: .caret(2)]),
            // e + U+0301: 1 + 2 bytes (as one bullet), two UTF-16 and two UTF-32 units.
            Case(text: "e\u{301}", select: nil,
                 shown: [.character: .caret(1), .utf8: .caret(3), .utf16: .caret(2), .utf32: .caret(2)],
                 masked: [.character: .caret(1), .utf8: .caret(3), .utf16: .caret(1), .utf32: .caret(1)]),
            // U+1F600: four bytes, a surrogate pair, one UTF-32 unit.
            Case(text: "😀", select: nil,
                 shown: [.character: .caret(1), .utf8: .caret(4), .utf16: .caret(2), .utf32: .caret(1)],
                 masked: [.character: .caret(1), .utf8: .caret(3), .utf16: .caret(1), .utf32: .caret(1)]),
            // 1 + 4 + 4 bytes are 9 like three bullets; only UTF-16 (1 + 2 + 2 units) differs.
            Case(text: "a😀😀", select: nil,
                 shown: [.character: .caret(3), .utf8: .caret(9), .utf16: .caret(5), .utf32: .caret(3)],
                 masked: [.character: .caret(3), .utf8: .caret(9), .utf16: .caret(3), .utf32: .caret(3)]),
            // A selection whose start (0) never moves and whose end moves where a😀 and ••
            // differ: 5 and 6 bytes, 3 and 2 UTF-16 units, 2 and 2 UTF-32 units.
            Case(text: "a😀", select: [.character: TextRange(0, 2), .utf8: TextRange(0, 5), .utf16: TextRange(0, 3), .utf32: TextRange(0, 2)],
                 shown: [.character: TextRange(0, 2), .utf8: TextRange(0, 5), .utf16: TextRange(0, 3), .utf32: TextRange(0, 2)],
                 masked: [.character: TextRange(0, 2), .utf8: TextRange(0, 6), .utf16: TextRange(0, 2), .utf32: TextRange(0, 2)]),
            // An empty field: the caret is 0 either way.
            Case(text: "", select: nil,
                 shown: [.character: .caret(0), .utf8: .caret(0), .utf16: .caret(0), .utf32: .caret(0)],
                 masked: [.character: .caret(0), .utf8: .caret(0), .utf16: .caret(0), .utf32: .caret(0)]),
        ]
        for c in cases {
            for encoding in PositionEncoding.allCases {
                let shown = c.shown[encoding]!, masked = c.masked[encoding]!
                let moves = shown != masked
                let bullets = String(repeating: "•", count: c.text.count)
                var h = FormHarness(fields: [field("a") { $0.text = c.text }], encoding: encoding)
                if let range = c.select?[encoding] {
                    h.send(.select(field: "a", start: range.start, end: range.end), .selection(range),
                           events: [.selectionChanged(field: "a", selection: range)], state: { $0["a"].selection = range })
                }
                h.send(.setSecure(field: "a", true),
                       events: [.fieldChanged(field: "a", changes: FieldChanges(options: options { $0.secure = true }, display: bullets,
                                                                                selection: moves ? masked : nil))],
                       state: { $0["a"].attributes.secure = true; $0["a"].display = bullets; $0["a"].selection = masked })
                h.send(.setSecure(field: "a", false),
                       events: [.fieldChanged(field: "a", changes: FieldChanges(options: options { $0.secure = false }, display: c.text,
                                                                                text: c.text, selection: moves ? shown : nil))],
                       state: { $0["a"].attributes.secure = false; $0["a"].display = c.text; $0["a"].selection = shown })
                // Masked again, then unmasked by `revealed` instead of `secure`: the same switch.
                h.send(.setSecure(field: "a", true),
                       events: [.fieldChanged(field: "a", changes: FieldChanges(options: options { $0.secure = true }, display: bullets,
                                                                                selection: moves ? masked : nil))],
                       state: { $0["a"].attributes.secure = true; $0["a"].display = bullets; $0["a"].selection = masked })
                h.send(.setRevealed(field: "a", true),
                       events: [.fieldChanged(field: "a", changes: FieldChanges(options: options { $0.revealed = true }, display: c.text,
                                                                                text: c.text, selection: moves ? shown : nil))],
                       state: { $0["a"].attributes.revealed = true; $0["a"].display = c.text; $0["a"].selection = shown })
            }
        }
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

    // A masked field's `textChanged.edit` always replaces the whole display: from 0 to
    // the old length in bullets, by one bullet per character of the new text. Any
    // narrower range would be computed from the hidden characters: a minimal diff stops
    // where they equal what was typed, and a window around the edit widens where a
    // regional indicator (half of a flag) sits. Only lengths are public, and the display
    // shows them anyway.

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
    /// "a": the hidden "a" equals the typed one), of hidden "pb" at 1. Now every hidden
    /// two-character text gives the same events: the two old bullets replaced by three,
    /// and on undo the three by two.
    func testTypingInAMaskedFieldReportsTheWholeDisplayWhateverTheNeighboursAre() {
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

    /// Before: typing at caret 3 of a hidden "abc🇫🇷" reported {0, 4} (the window grew to
    /// the whole text next to a regional indicator), of a hidden "abcde" {2, 4}: the range
    /// told that the character after the caret was half of a flag. Now both replace the
    /// whole display, four bullets by five and five by six, and differ only in the lengths
    /// that the displays show anyway; so do their Backspaces and undos. Five-character
    /// texts that differ only in hidden characters give identical events.
    func testTypingNextToAHiddenFlagReportsTheWholeDisplayLikeAnyOtherText() {
        for encoding in PositionEncoding.allCases {
            let w = encoding.bulletWidth
            var shapes: [String: [FormEvent]] = [:]
            for (hidden, typed, n) in [("abc🇫🇷", "abcx🇫🇷", 4), ("abcde", "abcxde", 5), ("🇫🇷bc🇩🇪e", "🇫🇷bcx🇩🇪e", 5)] {
                let old = String(repeating: "•", count: n), new = String(repeating: "•", count: n + 1)
                var h = FormHarness(fields: [field("pw", ["password"]) { $0.text = hidden }], encoding: encoding)
                var records = h.send(.select(field: "pw", start: 3 * w, end: 3 * w), .selection(.caret(3 * w)),
                                     events: [.selectionChanged(field: "pw", selection: .caret(3 * w))],
                                     state: { $0["pw"].selection = .caret(3 * w) })
                records += h.send(.insertText(field: "pw", text: "x"), .edit(applied: true, reason: nil),
                                  events: [.textChanged(field: "pw", text: nil, length: n + 1, edit: TextEdit(0, n * w, new),
                                                        selection: .caret(4 * w))],
                                  state: { $0["pw"].holds(typed, display: new, length: n + 1, selection: .caret(4 * w)) })
                records += h.send(.undo(field: "pw"), .edit(applied: true, reason: nil),
                                  events: [.textChanged(field: "pw", text: nil, length: n, edit: TextEdit(0, (n + 1) * w, old),
                                                        selection: .caret(3 * w))],
                                  state: { $0["pw"].holds(hidden, display: old, length: n, selection: .caret(3 * w), dirty: false) })
                // Backspace at caret 3 removes the hidden "c": n bullets become n − 1.
                let fewer = String(repeating: "•", count: n - 1)
                records += h.send(.delete(field: "pw"), .edit(applied: true, reason: nil),
                                  events: [.deletePressed(field: "pw", textBefore: old),
                                           .textChanged(field: "pw", text: nil, length: n - 1, edit: TextEdit(0, n * w, fewer),
                                                        selection: .caret(2 * w))],
                                  state: {
                                      $0["pw"].holds(hidden.replacingOccurrences(of: "c", with: ""), display: fewer, length: n - 1,
                                                     selection: .caret(2 * w))
                                  })
                let events = records.map(\.event)
                if let same = shapes[old] {
                    XCTAssertEqual(same, events, "\(hidden) in \(encoding)")
                } else {
                    shapes[old] = events
                }
            }
            XCTAssertEqual(shapes.count, 2, "\(encoding)")
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
        attributes { $0.secure = true; $0.hints = ["textContentType": #""password""#, "autocapitalization": #""none""#, "autocorrection": #""no""#] }
    }
}
