import XCTest
@testable import FormdCore

/// Commands that fail throw the right `FormError` and leave the whole engine, every form,
/// seq counters and pending demands included, exactly as it was.
final class FailureAtomicityTests: XCTestCase {
    /// A form with something in every corner of its state: text, a secret, a responder, a
    /// pending demand, a custom preset, a touched field, events already counted.
    private func busyForm() -> FormHarness {
        var h = FormHarness(fields: [field("a") { $0.text = "a" }, field("pw", ["password"]),
                                     field("later") { $0.enabled = false }, field("b", ["mine"])],
                            presets: ["mine": options { $0.label = "Mine"; $0.minLength = 2 }])
        h.send(.setText(field: "pw", text: "secret"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "pw", text: nil, length: 6, edit: TextEdit(0, 0, "••••••"), selection: .caret(6))],
               state: { $0["pw"].holds("secret", display: "••••••", length: 6, selection: .caret(6)) })
        h.focus("a")
        h.send(.demandFocus(field: "later", demand: .become), .demand(.pending),
               events: [.demand("later", .pending, pending: .become)], state: { $0["later"].demand = .become })
        return h
    }

    private let unknownZZ = FormError.unknownField(field: "zz", form: "default")

    func testUnknownFieldInEveryFieldCommand() {
        var h = busyForm()
        let commands: [FormCommand] = [
            .removeField("zz"), .configureField("zz", options: FieldOptions(), configuration: nil),
            .setText(field: "zz", text: ""), .delete(field: "zz"), .pressReturn(field: "zz"),
            .demandFocus(field: "zz", demand: .become), .setEnabled(field: "zz", true), .setSecure(field: "zz", true),
            .setRevealed(field: "zz", true), .addField(field("new"), after: "zz"),
        ]
        for command in commands { h.sendFailing(command, throws: unknownZZ) }
    }

    func testUnknownFormForEveryCommandButDefineForm() {
        var h = busyForm()
        let commands: [FormCommand] = [
            .addField(field("x"), after: nil), .removeField("a"), .configureField("a", options: FieldOptions(), configuration: nil),
            .setText(field: "a", text: ""), .delete(field: nil), .pressReturn(field: nil), .demandFocus(field: "a", demand: .become),
            .focusNext, .focusPrevious, .setEnabled(field: "a", true), .setSecure(field: "a", true), .setRevealed(field: "a", true),
            .getState(includeSecrets: true), .validate, .submit(includeSecrets: true), .reset,
        ]
        for command in commands { h.sendFailing(command, on: "nope", throws: .unknownForm("nope")) }
        XCTAssertEqual(FormError.unknownForm("nope").message, "unknown form \"nope\"; create it with defineForm")
    }

    func testUnknownPresetInDefineAddAndConfigure() {
        var h = busyForm()
        let unknown = FormError.invalidParams(
            "unknown preset \"nope\" in configuration; known presets: autoclears, email, lastOfChain, mine, partOfChain, password")
        h.sendFailing(.defineForm(fields: [field("x", ["nope"])], presets: ["mine": FieldOptions()]), throws: unknown)
        h.sendFailing(.addField(field("x", ["email", "nope"]), after: nil), throws: unknown)
        h.sendFailing(.configureField("a", options: options { $0.label = "L" }, configuration: ["nope"]), throws: unknown)
    }

    func testUnknownPresetInANewFormDoesNotCreateTheForm() {
        var h = busyForm()
        h.sendFailing(.defineForm(fields: [field("x", ["nope"])], presets: [:]), on: "login",
                      throws: .invalidParams("unknown preset \"nope\" in configuration; known presets: autoclears, email, lastOfChain, partOfChain, password"))
        h.sendFailing(.getState(includeSecrets: false), on: "login", throws: .unknownForm("login"))
    }

    func testDuplicateIds() {
        var h = busyForm()
        h.sendFailing(.defineForm(fields: [field("x"), field("y"), field("x")], presets: [:]),
                      throws: .invalidParams("duplicate field id \"x\"; ids must be unique in a form"))
        h.sendFailing(.addField(field("b"), after: nil), throws: .invalidParams("field \"b\" already exists in form \"default\""))
    }

    func testBadRegularExpressionIsRefusedWhenThePatternIsBuilt() {
        for (source, offset) in [("(", 0), ("[a-", 0), ("a{2,1}", 1)] {
            do {
                _ = try FieldPattern(source)
                XCTFail("pattern \(source) compiled")
            } catch {
                guard case .invalidParams(let message) = error else { return XCTFail("\(error)") }
                XCTAssert(message.contains("at offset \(offset)"), message)
            }
        }
    }

    func testLengthBoundsThatContradictEachOther() {
        var h = busyForm()
        h.sendFailing(.defineForm(fields: [field("x") { $0.minLength = 5; $0.maxLength = 3 }], presets: [:]),
                      throws: .invalidParams("field \"x\": minLength 5 is greater than maxLength 3"))
        // The contradiction may come from layering: the preset's minLength, the field's maxLength.
        h.sendFailing(.addField(field("x", ["mine"]) { $0.maxLength = 1 }, after: nil),
                      throws: .invalidParams("field \"x\": minLength 2 is greater than maxLength 1"))
        h.sendFailing(.configureField("a", options: options { $0.minLength = 4; $0.maxLength = 2 }, configuration: nil),
                      throws: .invalidParams("field \"a\": minLength 4 is greater than maxLength 2"))
        h.sendFailing(.configureField("a", options: options { $0.minLength = -1 }, configuration: nil),
                      throws: .invalidParams("field \"a\": minLength must be 0 or more, got -1"))
        h.sendFailing(.configureField("a", options: options { $0.maxLength = -2 }, configuration: nil),
                      throws: .invalidParams("field \"a\": maxLength must be 0 or more, got -2"))
    }

    func testInitialTextOverMaxLength() {
        var h = busyForm()
        h.sendFailing(.defineForm(fields: [field("x") { $0.text = "abcd"; $0.maxLength = 3 }], presets: [:]),
                      throws: .invalidParams("field \"x\": text has 4 characters but maxLength is 3"))
        h.sendFailing(.addField(field("x") { $0.text = "👍🏽👍🏽"; $0.maxLength = 1 }, after: "a"),
                      throws: .invalidParams("field \"x\": text has 2 characters but maxLength is 1"))
        h.sendFailing(.configureField("a", options: options { $0.text = "long"; $0.maxLength = 2 }, configuration: nil),
                      throws: .invalidParams("field \"a\": text has 4 characters but maxLength is 2"))
        // The initial text "a" of field a itself also counts against a new maxLength.
        h.sendFailing(.configureField("a", options: options { $0.maxLength = 0 }, configuration: nil),
                      throws: .invalidParams("field \"a\": text has 1 character but maxLength is 0"))
        // Exactly at the limit, in characters, is fine.
        h.define("other", fields: [field("x") { $0.text = "👍🏽👍🏽"; $0.maxLength = 2 }])
    }

    func testMissingFieldWithoutFirstResponder() {
        var h = FormHarness(fields: plainFields("a"))
        let none = FormError.invalidParams("no field given and form \"default\" has no first responder; pass \"field\"")
        h.sendFailing(.delete(field: nil), throws: none)
        h.sendFailing(.pressReturn(field: nil), throws: none)
    }

    /// Bug fixed: the client's position encoding stayed in the form after a command, so a
    /// command that threw, or a mere `getState`, from a client counting differently left
    /// the engine changed.
    func testAClientWithAnotherEncodingChangesNothingByFailingOrReading() {
        var h = busyForm()
        h.encoding = .utf8
        h.sendFailing(.select(field: "pw", start: 1, end: 3),
                      throws: .invalidParams("position 1 falls inside a character (positions are in utf-8 units)"))
        h.sendFailing(.select(field: "a", start: 0, end: 2),
                      throws: .invalidParams("position 2 is outside the field's text (0...1 in utf-8)"))
        XCTAssertEqual(h.getState(includeSecrets: true)?["pw"].selection, .caret(18))
        h.encoding = .utf16
        XCTAssertEqual(h.getState(includeSecrets: false)?["pw"].selection, .caret(6))
    }

    func testUnknownFieldInEveryTextEditingCommand() {
        var h = busyForm()
        let commands: [FormCommand] = [
            .insertText(field: "zz", text: "x"), .delete(field: "zz", direction: .forward, unit: .word),
            .select(field: "zz", start: 0, end: 0), .moveCaret(field: "zz", to: .end, extend: true),
            .editAction(field: "zz", action: .paste, text: "x"), .undo(field: "zz"), .redo(field: "zz"),
        ]
        for command in commands { h.sendFailing(command, throws: unknownZZ) }
        for command in commands { h.sendFailing(command, on: "nope", throws: .unknownForm("nope")) }
    }

    func testErrorMessagesNameWhatWasWrong() {
        XCTAssertEqual(FormError.unknownField(field: "f", form: "g").message, "unknown field \"f\" in form \"g\"")
        XCTAssertEqual(FormError.invalidParams("m").message, "m")
        XCTAssertEqual(FormError.limitExceeded(limit: "forms", message: "too many").message, "too many")
    }
}
