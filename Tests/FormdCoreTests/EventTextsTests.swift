import FormdTestSupport
import XCTest
@testable import FormdCore

/// `FormEngine.setEventTexts`: a form's `textChanged` events carry their field's text
/// until a server turns that off for it, and then differ in nothing else; a masked field's
/// never carry it.
final class EventTextsTests: XCTestCase {
    private static let long = "a text longer than fifteen bytes, so it is not held inline: é"

    /// An engine whose default form holds a plain field `a` and a password field `pw`.
    private func engine() throws -> FormEngine {
        var e = FormEngine()
        _ = try e.perform(.defineForm(fields: [field("a") { $0.text = "héllo" }, field("pw", ["password"])], presets: [:]))
        return e
    }

    private func events(_ e: inout FormEngine, _ command: FormCommand, on form: String = FormEngine.defaultForm,
                        encoding: PositionEncoding = .character) throws -> [FormEvent] {
        try e.perform(command, on: form, encoding: encoding).events.map(\.event)
    }

    func testTextChangedCarriesTheTextUntilTurnedOffAndAgainOnceTurnedOn() throws {
        var e = try engine()
        XCTAssertEqual(try events(&e, .insertText(field: "a", text: "!")),
                       [.textChanged(field: "a", text: "héllo!", length: 6, edit: TextEdit(5, 5, "!"), selection: .caret(6))])
        e.setEventTexts(false)
        XCTAssertEqual(try events(&e, .insertText(field: "a", text: "?")),
                       [.textChanged(field: "a", text: nil, length: 7, edit: TextEdit(6, 6, "?"), selection: .caret(7))])
        XCTAssertEqual(try events(&e, .delete(field: "a", direction: .backward, unit: .character), encoding: .utf8),
                       [.deletePressed(field: "a", textBefore: "héllo!?"),
                        .textChanged(field: "a", text: nil, length: 6, edit: TextEdit(7, 8, ""),
                                     selection: .caret(7))])
        // The state is whole either way: only the event leaves the text out.
        XCTAssertEqual(e.form(FormEngine.defaultForm)?.fields[0].text, "héllo!")
        e.setEventTexts(true)
        XCTAssertEqual(try events(&e, .setText(field: "a", text: "x")),
                       [.textChanged(field: "a", text: "x", length: 1, edit: TextEdit(0, 6, "x"),
                                     selection: .caret(1))])
    }

    func testAMaskedFieldNeverCarriesItsText() throws {
        for on in [true, false] {
            var e = try engine()
            e.setEventTexts(on)
            XCTAssertEqual(try events(&e, .setText(field: "pw", text: "s3cret")),
                           [.textChanged(field: "pw", text: nil, length: 6, edit: TextEdit(0, 0, "••••••"), selection: .caret(6))], "texts \(on)")
        }
    }

    /// The same commands with texts on and off: the events are the same but for the text,
    /// whatever the command (typing, deleting, pasting, undo, redo, Return, a masked field).
    func testWithoutTextsEveryEventIsTheSameButForTheText() throws {
        let commands: [FormCommand] = [
            .demandFocus(field: "a", demand: .become),
            .insertText(field: nil, text: "👍🏽 wörld"),
            .moveCaret(field: nil, to: .wordLeft, extend: true),
            .editAction(field: nil, action: .cut, text: nil),
            .editAction(field: nil, action: .paste, text: "e\u{301}"),
            .delete(field: nil, direction: .backward, unit: .word),
            .undo(field: nil),
            .undo(field: nil),
            .redo(field: nil),
            .setText(field: "a", text: Self.long),
            .pressReturn(field: nil),
            .insertText(field: nil, text: "pässword"),
            .delete(field: nil, direction: .backward, unit: .character),
            .setSecure(field: "a", true),
            .insertText(field: "a", text: "z"),
            .setSecure(field: "a", false),
            .insertText(field: "a", text: "y"),
        ]
        for encoding in PositionEncoding.allCases {
            var with = try engine(), without = try engine()
            without.setEventTexts(false)
            var texts = 0
            for command in commands {
                let full = try events(&with, command, encoding: encoding)
                let bare = try events(&without, command, encoding: encoding)
                XCTAssertEqual(bare, full.map { event in
                    guard case .textChanged(let id, let text, let length, let edit, let selection) = event else { return event }
                    if text != nil { texts += 1 }
                    return .textChanged(field: id, text: nil, length: length, edit: edit, selection: selection)
                }, "\(command) in \(encoding)")
                XCTAssertEqual(with.form(FormEngine.defaultForm)?.fields.map(\.text), without.form(FormEngine.defaultForm)?.fields.map(\.text))
            }
            XCTAssertGreaterThan(texts, 8, "the commands changed texts")
        }
    }

    /// Without its text, a live event shares no storage with the field, which the next
    /// edit then changes in place; with it, the event holds one reference more.
    func testWithoutTheTextTheEventHoldsNoReferenceToTheFieldsText() throws {
        func references(texts on: Bool) throws -> Int {
            var e = try engine()
            e.setEventTexts(on)
            _ = try e.perform(.setText(field: "a", text: Self.long))
            let event = try e.perform(.insertText(field: "a", text: "!"))
            let text = try XCTUnwrap(e.form(FormEngine.defaultForm)?.fields[0].text)
            let count = storageReferences(text)
            withExtendedLifetime(event) {}
            return count
        }
        let without = try references(texts: false), with = try references(texts: true)
        XCTAssertEqual(with, without + 1)
    }

    /// The setting is the engine's: every form takes it, one defined later too.
    func testEveryFormTakesTheSettingOneDefinedLaterToo() throws {
        var e = try engine()
        _ = try e.perform(.defineForm(fields: [field("b")], presets: [:]), on: "before")
        e.setEventTexts(false)
        _ = try e.perform(.defineForm(fields: [field("b")], presets: [:]), on: "after")
        for form in [FormEngine.defaultForm, "before", "after"] {
            let id = form == FormEngine.defaultForm ? "a" : "b", removed = form == FormEngine.defaultForm ? 5 : 0
            XCTAssertEqual(try events(&e, .setText(field: id, text: "new"), on: form),
                           [.textChanged(field: id, text: nil, length: 3, edit: TextEdit(0, removed, "new"), selection: .caret(3))], form)
        }
        e.setEventTexts(true)
        for form in [FormEngine.defaultForm, "before", "after"] {
            let id = form == FormEngine.defaultForm ? "a" : "b"
            XCTAssertEqual(try events(&e, .insertText(field: id, text: "er"), on: form),
                           [.textChanged(field: id, text: "newer", length: 5, edit: TextEdit(3, 3, "er"), selection: .caret(5))], form)
        }
    }

    /// The setting is how events are delivered, not part of the engine's value: switched,
    /// the engine is the same, so a request that fails right after has changed nothing
    /// (the fuzzer's invariant; a form's stored setting once made such a request "change"
    /// the engine).
    func testTheSettingIsNotPartOfTheEnginesValue() throws {
        let before = try engine()
        var e = before
        e.setEventTexts(false)
        XCTAssertEqual(e, before)
        XCTAssertThrowsError(try e.perform(.moveCaret(field: nil, to: .end, extend: true)))
        XCTAssertEqual(e, before)
        e.setEventTexts(true)
        XCTAssertEqual(e, before)
    }
}
