import XCTest
@testable import FormdCore

/// `maxUndoText`: the undo and redo steps of all fields cost at most the budget (a step:
/// the bytes it removed and inserted, plus 128, from when it is made until it is dropped
/// or out of reach).
/// Passing it never refuses an edit: the oldest steps of the whole daemon are dropped until
/// the histories cost at most 7/8 of it.
final class HistoryBudgetTests: XCTestCase {
    private static let applied = CommandResult.edit(applied: true, reason: nil)
    private static let nothingToUndo = CommandResult.edit(applied: false, reason: .nothingToUndo)
    private static let nothingToRedo = CommandResult.edit(applied: false, reason: .nothingToRedo)

    private static func text(_ c: Character) -> String { String(repeating: c, count: 100) }

    private func harness(undoText: Int, fields: [FieldSpec] = [field("a"), field("b")]) -> FormHarness {
        FormHarness(fields: fields, limits: EngineLimits(maxUndoText: undoText))
    }

    /// `setText` of 100 bytes over `old` in field `id`: one `textChanged`, never refused.
    private func set(_ h: inout FormHarness, _ id: String, _ c: Character, over old: Character?,
                     file: StaticString = #filePath, line: UInt = #line) {
        let t = Self.text(c)
        h.send(.setText(field: id, text: t), Self.applied,
               events: [.textChanged(field: id, text: t, length: 100, edit: TextEdit(0, old == nil ? 0 : 100, t), selection: .caret(100))],
               state: { $0[id].holds(t, length: 100, selection: .caret(100)) }, file: file, line: line)
    }

    private func undo(_ h: inout FormHarness, _ id: String, to c: Character?, from old: Character,
                      file: StaticString = #filePath, line: UInt = #line) {
        let t = c.map(Self.text) ?? ""
        h.send(.undo(field: id), Self.applied,
               events: [.textChanged(field: id, text: t, length: t.count, edit: TextEdit(0, 100, t), selection: .caret(t.count))],
               state: { $0[id].holds(t, length: t.count, selection: .caret(t.count), dirty: c != nil) }, file: file, line: line)
    }

    func testTheOldestStepsOfAFieldGoFirstAndTheEditIsNeverRefused() {
        // Steps cost 228 (0 removed + 100 inserted + 128), then 328 each: 228 + 328 = 556
        // fits in 700; a third step makes 884, over it, so steps go, oldest first, until
        // the history costs at most 613 (700 - 700 / 8): both older steps (556 freed).
        var h = harness(undoText: 700)
        set(&h, "a", "x", over: nil)
        set(&h, "a", "y", over: "x")
        XCTAssertEqual(h.engine.heldHistoryBytes, 556)
        set(&h, "a", "z", over: "y")
        XCTAssertEqual(h.engine.heldHistoryBytes, 328)
        undo(&h, "a", to: "y", from: "z")
        h.send(.undo(field: "a"), Self.nothingToUndo, events: [])
        XCTAssertEqual(h.engine.heldHistoryBytes, 328, "an undone step is kept for redo")
    }

    func testTheOldestStepsOfTheWholeDaemonGoFirst() {
        // a: 228 (serial 1); b: 228, 328, 328 (serials 2-4). The last passes 800, the goal
        // is 700: the two oldest steps (a's and b's first, 456) go, b's last two stay.
        var h = harness(undoText: 800)
        set(&h, "a", "x", over: nil)
        set(&h, "b", "x", over: nil)
        set(&h, "b", "y", over: "x")
        XCTAssertEqual(h.engine.heldHistoryBytes, 784)
        set(&h, "b", "z", over: "y")
        XCTAssertEqual(h.engine.heldHistoryBytes, 656)
        h.send(.undo(field: "a"), Self.nothingToUndo, events: [])
        undo(&h, "b", to: "y", from: "z")
        undo(&h, "b", to: "x", from: "y")
        h.send(.undo(field: "b"), Self.nothingToUndo, events: [])
    }

    func testAnOldRedoStepTakesTheRedoStackWithIt() {
        // a: 228 (serial 1); b: 228, 328, 328 (serials 2-4), its last two undone (redo
        // holds 4 under 3). A 300-byte text in a (528) makes 1640 > 1200; the goal 1050
        // needs 590 freed: serials 1-3 (784). Serial 3 is the next redo, and a redo step
        // cannot be made without the ones above it: serial 4 goes with it at once.
        var h = harness(undoText: 1200)
        set(&h, "a", "x", over: nil)
        set(&h, "b", "x", over: nil)
        set(&h, "b", "y", over: "x")
        set(&h, "b", "z", over: "y")
        undo(&h, "b", to: "y", from: "z")
        undo(&h, "b", to: "x", from: "y")
        XCTAssertEqual(h.engine.heldHistoryBytes, 1112)
        let long = String(repeating: "w", count: 300)
        h.send(.setText(field: "a", text: long), Self.applied,
               events: [.textChanged(field: "a", text: long, length: 300, edit: TextEdit(0, 100, long), selection: .caret(300))],
               state: { $0["a"].holds(long, length: 300, selection: .caret(300)) })
        XCTAssertEqual(h.engine.heldHistoryBytes, 528)
        h.send(.redo(field: "b"), Self.nothingToRedo, events: [])
        h.send(.undo(field: "b"), Self.nothingToUndo, events: [])
        h.send(.undo(field: "a"), Self.applied,
               events: [.textChanged(field: "a", text: Self.text("x"), length: 100, edit: TextEdit(0, 300, Self.text("x")), selection: .caret(100))],
               state: { $0["a"].holds(Self.text("x"), length: 100, selection: .caret(100)) })
    }

    func testABudgetSmallerThanOneStepKeepsNoHistoryAndRefusesNothing() {
        var h = harness(undoText: 1, fields: [field("a"), field("pin") { $0.secure = true }])
        set(&h, "a", "x", over: nil)
        XCTAssertEqual(h.engine.heldHistoryBytes, 0)
        h.send(.undo(field: "a"), Self.nothingToUndo, events: [])
        // A secure field's edit still emits its masked textChanged (and its step goes the
        // same way): trimming tells nothing about the text.
        let bullets = String(repeating: "•", count: 6)
        h.send(.setText(field: "pin", text: "s3cr3t"), Self.applied,
               events: [.textChanged(field: "pin", text: nil, length: 6, edit: TextEdit(0, 0, bullets), selection: .caret(6))],
               state: { $0["pin"].holds("s3cr3t", display: bullets, length: 6, selection: .caret(6)) })
        XCTAssertEqual(h.engine.heldHistoryBytes, 0)
        h.send(.undo(field: "pin"), Self.nothingToUndo, events: [])
    }

    func testTypingRunsAndBackspacesCountAsTheyGrow() {
        var h = harness(undoText: 1 << 20)
        h.focus("a")
        for c in ["h", "e", "y"] { h.run(.insertText(field: nil, text: c)) }
        XCTAssertEqual(h.engine.heldHistoryBytes, 3 + 128, "one typing run, one step")
        for _ in 0..<2 { h.run(.delete(field: nil)) }
        XCTAssertEqual(h.engine.heldHistoryBytes, 3 + 128 + 2 + 128, "one run of Backspaces")
        h.run(.undo(field: nil))
        XCTAssertEqual(h.engine.heldHistoryBytes, 3 + 128 + 2 + 128, "undo moves the step to redo")
        h.run(.insertText(field: nil, text: "!"))
        XCTAssertEqual(h.engine.heldHistoryBytes, 3 + 128 + 1 + 128, "the cleared redo step no longer counts")
        h.send(.redo(field: "a"), Self.nothingToRedo, events: [])
        h.run(.reset)
        h.run(.setText(field: "b", text: "b"))
        XCTAssertEqual(h.engine.heldHistoryBytes, 1 + 128, "nor do the steps reset put out of reach")
        h.send(.undo(field: "a"), Self.nothingToUndo, events: [])
    }

    /// Typing into a field resumes its run after edits of another field: the run is one
    /// step for undo, though its keystrokes after the other field's edit are a record of
    /// their own (128 more against the budget).
    func testARunResumedAfterAnotherFieldsEditIsOneStep() {
        var h = harness(undoText: 1 << 20)
        h.focus("a")
        for c in ["h", "e"] { h.run(.insertText(field: nil, text: c)) }
        h.run(.setText(field: "b", text: "x"))
        h.run(.insertText(field: "a", text: "y"))
        XCTAssertEqual(h.engine.heldHistoryBytes, 2 + 128 + 1 + 128 + 1 + 128)
        h.send(.undo(field: "a"), Self.applied,
               events: [.textChanged(field: "a", text: "", length: 0, edit: TextEdit(0, 3, ""), selection: .caret(0))],
               state: { $0["a"].holds("", length: 0, selection: .caret(0), dirty: false) })
        h.send(.redo(field: "a"), Self.applied,
               events: [.textChanged(field: "a", text: "hey", length: 3, edit: TextEdit(0, 0, "hey"), selection: .caret(3))],
               state: { $0["a"].holds("hey", length: 3, selection: .caret(3)) })
    }

    /// A forgotten history is let go at once, text (a secure field's too) and count, not
    /// when the budget drops its records.
    func testForgottenStepsLetTheirTextGoAtOnce() throws {
        var engine = FormEngine()
        let secure = field("pw") { $0.secure = true }
        _ = try engine.perform(.defineForm(fields: [secure, field("b"), field("c")], presets: [:]))
        // pw: "hunter2" set over "" (7 + 128), then "x" typed over it (1 + 128).
        _ = try engine.perform(.setText(field: "pw", text: "hunter2"))
        _ = try engine.perform(.setText(field: "pw", text: "x"))
        XCTAssertEqual(engine.heldHistoryBytes, 7 + 128 + 7 + 1 + 128)
        _ = try engine.perform(.reset)
        XCTAssertEqual(engine.heldHistoryBytes, 0, "a reset field's steps are gone")
        XCTAssertEqual(engine.undoLog.textHeld, 0, "their text with them")
        XCTAssertEqual(engine.countedHistoryBytes, engine.heldHistoryBytes)

        // b: a step undone, then a new one: the redo step's text goes.
        _ = try engine.perform(.setText(field: "b", text: "secret"))
        _ = try engine.perform(.undo(field: "b"))
        _ = try engine.perform(.setText(field: "b", text: "yz"))
        XCTAssertEqual(engine.heldHistoryBytes, 2 + 128)

        // c: removed with its steps.
        _ = try engine.perform(.setText(field: "c", text: "abc"))
        _ = try engine.perform(.removeField("c"))
        XCTAssertEqual(engine.heldHistoryBytes, 2 + 128)
        XCTAssertEqual(engine.countedHistoryBytes, engine.heldHistoryBytes)

        // A form defined anew over b: b's step goes.
        _ = try engine.perform(.defineForm(fields: [field("d")], presets: [:]))
        XCTAssertEqual(engine.heldHistoryBytes, 0)
        XCTAssertEqual(engine.undoLog.textHeld, 0)
        XCTAssertEqual(engine.countedHistoryBytes, engine.heldHistoryBytes)
    }
}


/// `maxTotalFields`: fields in all forms together, checked before any is built.
final class TotalFieldsTests: XCTestCase {
    private static func specs(_ n: Int) -> [FieldSpec] { (0..<n).map { field("f\($0)") } }
    private static let limits = EngineLimits(maxTotalFields: 5)

    private static func refusal(_ count: Int, form: String) -> FormError {
        .limitExceeded(limit: "maxTotalFields", message: "limit maxTotalFields exceeded: with form \"\(form)\" the daemon would hold \(count) fields, at most 5 in all forms (raise it with --max-total-fields)")
    }

    func testDefineFormAndAddFieldCountEveryForm() {
        var h = FormHarness(fields: Self.specs(3), limits: Self.limits)
        h.define("second", fields: Self.specs(2))
        h.sendFailing(.addField(field("x"), after: nil), throws: Self.refusal(6, form: "default"))
        h.sendFailing(.defineForm(fields: Self.specs(3), presets: [:]), on: "third", throws: Self.refusal(8, form: "third"))
        // Redefining a form counts its new fields in place of its old ones.
        h.define(fields: Self.specs(2))
        h.define("third", fields: Self.specs(1))
        h.sendFailing(.defineForm(fields: Self.specs(4), presets: [:]), throws: Self.refusal(7, form: "default"))
        // addField's own errors come first, as for maxFields.
        h.sendFailing(.addField(field("f0"), after: nil), on: "second",
                      throws: .invalidParams("field \"f0\" already exists in form \"second\""))
    }

    func testAFormFileOverTheCapIsRefusedBeforeItsSpecsAreRead() {
        var engine = FormEngine(limits: Self.limits)
        XCTAssertThrowsError(try engine.load(count: 6, presets: [:]) { _ throws(FormError) -> FieldSpec in
            XCTFail("no spec is read")
            return field("x")
        }) { XCTAssertEqual($0 as? FormError, Self.refusal(6, form: "default")) }
        XCTAssertEqual(engine.fieldCount, 0)
    }

    func testSavedStateOverTheCapDoesNotRestore() {
        func saved(_ name: String, _ n: Int) -> PersistedForm {
            PersistedForm(name: name, seq: 0, presets: [:],
                          fields: Self.specs(n).map { PersistedField(spec: $0, text: "", anchorUTF8: 0, headUTF8: 0) },
                          responder: nil, pendingBecome: nil)
        }
        XCTAssertEqual(try FormEngine(limits: Self.limits, restoring: [saved("a", 2), saved("b", 3)]).fieldCount, 5)
        XCTAssertThrowsError(try FormEngine(limits: Self.limits, restoring: [saved("a", 2), saved("b", 4)])) {
            XCTAssertEqual($0 as? FormError, Self.refusal(6, form: "b"))
        }
        var perForm = Self.limits
        perForm.maxFields = 2
        XCTAssertThrowsError(try FormEngine(limits: perForm, restoring: [saved("a", 3)])) {
            XCTAssertEqual(($0 as? FormError).map { "\($0)" }?.contains("maxFields"), true)
        }
    }
}
