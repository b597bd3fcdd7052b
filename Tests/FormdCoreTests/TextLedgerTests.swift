@testable import FormdCore
import FormdTestSupport
import XCTest

/// The engine's count of the text all forms hold (`--max-total-text`) is exact after every
/// command, whatever changes texts: edits, undo and redo, `reset`, `defineForm` over a
/// form, `addField`, `removeField`, a new own or preset text, labels, placeholders,
/// pattern hints and hints given by a field or its presets, restored and loaded forms.
final class TextLedgerTests: XCTestCase {
    private static let forms = ["default", "f1", "f2"]
    private static let presets: [String: FieldOptions] = [
        "greeting": options { $0.text = "héllo" },
        "titled": options { $0.label = "Naïf"; $0.placeholder = "t"; $0.hints = ["k": "1"] },
    ]

    private static func specs(_ count: Int, _ rng: inout SplitMix64) -> [FieldSpec] {
        (0..<count).map { i in
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return field("x\(i)")
            case 1: return field("x\(i)", ["greeting"])
            case 2: return field("x\(i)", ["titled", "partOfChain"]) { $0.label = "o" }
            default: return field("x\(i)") { $0.text = "init\(i)" }
            }
        }
    }

    /// Options that set or clear one of the strings that describe a field to `text`.
    private static func describing(_ text: String, _ rng: inout SplitMix64) -> FieldOptions {
        let value: String? = Int.random(in: 0..<4, using: &rng) == 0 ? nil : text
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return options { $0.label = .some(value) }
        case 1: return options { $0.placeholder = .some(value) }
        case 2: return options { $0.patternHint = .some(value) }
        default: return options { $0.hints = FieldHints([.init(key: ["k", "returnKeyType", text].randomElement(using: &rng)!, json: "\"\(text)\"")]) }
        }
    }

    /// Random commands over three forms under a budget they often reach: after each, the
    /// counted bytes are the bytes a pass over every field finds, within the budget.
    func testTheCountIsExactAfterEveryCommand() throws {
        let budget = 600
        try runRandomCommands(limits: EngineLimits(maxUndoSteps: 8, maxTotalText: budget), seeds: 1...8, count: 3_000,
                              forms: Self.forms, maxText: budget / 3,
                              define: { .defineForm(fields: Self.specs(4, &$0), presets: Self.presets) }) { target, rng in
            let (id, text) = (target.id, target.text)
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<25: return .setText(field: id, text: text)
            case 25..<40: return .insertText(field: id, text: text)
            case 40..<46: return .delete(field: id)
            case 46..<50: return .editAction(field: id, action: .paste, text: text)
            case 50..<54: return .editAction(field: id, action: .cut, text: nil)
            case 54..<57: return .select(field: id, start: 0, end: Int.random(in: 0...2, using: &rng))
            case 57..<65: return .undo(field: id)
            case 65..<71: return .redo(field: id)
            case 71..<75: return .reset
            case 75..<79: return .defineForm(fields: Self.specs(Int.random(in: 1...5, using: &rng), &rng), presets: Self.presets)
            case 79..<83: return .removeField(id)
            case 83..<87: return .addField(field(id) { $0.text = text }, after: nil)
            case 87..<90: return .setSecure(field: id, Bool.random(using: &rng))
            case 90..<92: return .configureField(id, options: options { $0.text = text }, configuration: nil)
            case 92..<94: return .configureField(id, options: FieldOptions(), configuration: [["greeting"], ["titled"], []].randomElement(using: &rng)!)
            default: return .configureField(id, options: Self.describing(text, &rng), configuration: nil)
            }
        } check: { engine, _, label in
            let held = engine.heldTextBytes
            XCTAssertEqual(engine.countedTextBytes, held, label)
            XCTAssertLessThanOrEqual(held, budget, label)
        }
    }

    /// Restored and loaded forms count what they hold, and a form loaded over another
    /// no longer counts the one it replaced.
    func testRestoredAndLoadedFormsAreCounted() throws {
        let saved = PersistedForm(name: "a", seq: 0, presets: [:],
                                  fields: [PersistedField(spec: field("x") { $0.text = "start" }, text: "typed é", anchorUTF8: 0, headUTF8: 0)],
                                  responder: nil, pendingBecome: nil)
        var engine = try FormEngine(restoring: [saved])
        XCTAssertEqual(engine.countedTextBytes, 5 + 8 + 1)
        XCTAssertEqual(engine.countedTextBytes, engine.heldTextBytes)
        try engine.load(count: 2, presets: [:], into: "a") { i throws(FormError) in field("y\(i)") { $0.text = "abc" } }
        XCTAssertEqual(engine.countedTextBytes, 2 * (6 + 2))
        XCTAssertEqual(engine.countedTextBytes, engine.heldTextBytes)
    }

    /// A command admitted without a look at the form (`addsNoText`) is one the form gives
    /// no growth either, on fields with text, a selection and steps to undo and redo.
    func testCommandsThatAddNoTextGetNoGrowthFromTheForm() throws {
        var engine = FormEngine()
        _ = try engine.perform(.defineForm(fields: [field("a") { $0.text = "start" }, field("b")], presets: [:]))
        _ = try engine.perform(.setText(field: "a", text: "a longer text"))
        _ = try engine.perform(.setText(field: "b", text: "b"))
        _ = try engine.perform(.undo(field: "b"))
        _ = try engine.perform(.select(field: "a", start: 2, end: 8))
        var commands: [FormCommand] = [
            .delete(field: "a"), .delete(field: nil, direction: .forward, unit: .word), .select(field: "a", start: 0, end: 3),
            .pressReturn(field: "a"), .demandFocus(field: "b", demand: .become), .focusNext, .focusPrevious,
            .setEnabled(field: "a", false), .setSecure(field: "a", true), .setRevealed(field: "a", true),
            .getState(includeSecrets: true), .validate, .submit(includeSecrets: false), .removeField("a"),
            .editAction(field: "a", action: .paste, text: nil),
            .setText(field: "a", text: "x"), .undo(field: "b"), .redo(field: "b"), .reset,
        ]
        commands += CaretTarget.allCases.map { .moveCaret(field: "a", to: $0, extend: true) }
        commands += EditAction.allCases.map { .editAction(field: "a", action: $0, text: "pasted text") }
        var quiet = 0
        for command in commands where command.addsNoText {
            XCTAssertEqual(engine.storage[0].textGrowth(command), 0, "\(command)")
            quiet += 1
        }
        XCTAssertEqual(quiet, commands.count - 5, "setText, undo, redo, reset and a paste with text may add text")
    }

    /// The engine carries out a command that rebuilds no field (`rebuildsFields`) without
    /// admitting a field count or recounting text: such a command has no fields whose text
    /// is recounted (`touchedText` is nil), and every command that has is one that rebuilds.
    func testOnlyCommandsThatRebuildFieldsHaveTextToRecount() throws {
        var engine = FormEngine()
        _ = try engine.perform(.defineForm(fields: [field("a") { $0.text = "start" }, field("b")], presets: [:]))
        var commands: [FormCommand] = [
            .defineForm(fields: [field("c")], presets: [:]), .addField(field("c"), after: "a"), .removeField("a"),
            .configureField("a", options: options { $0.label = "l" }, configuration: nil), .setEnabled(field: "a", false),
            .setSecure(field: "a", true), .setRevealed(field: "a", true), .reset,
            .setText(field: "a", text: "x"), .insertText(field: "a", text: "x"), .insertText(field: nil, text: "x"),
            .delete(field: "a"), .select(field: "a", start: 0, end: 1), .undo(field: "a"), .redo(field: "a"),
            .pressReturn(field: "a"), .demandFocus(field: "b", demand: .become), .focusNext, .focusPrevious,
            .getState(includeSecrets: false), .validate, .submit(includeSecrets: false),
        ]
        commands += CaretTarget.allCases.map { .moveCaret(field: "a", to: $0, extend: false) }
        commands += EditAction.allCases.map { .editAction(field: "a", action: $0, text: "t") }
        for command in commands {
            XCTAssertEqual(engine.touchedText(command, form: 0) != nil, command.rebuildsFields, "\(command)")
        }
        XCTAssertEqual(commands.filter(\.rebuildsFields).count, 8)
    }

    /// Near the budget an edit that does not lengthen the text is still carried out, and
    /// one that would pass the budget by a byte is refused, changing nothing.
    func testTheBudgetActsOnTheExactCount() throws {
        // The ids "a" and "b" hold 2 of the 102 bytes.
        var engine = FormEngine(limits: EngineLimits(maxTotalText: 102))
        _ = try engine.perform(.defineForm(fields: [field("a"), field("b")], presets: [:]))
        _ = try engine.perform(.setText(field: "a", text: String(repeating: "x", count: 90)))
        _ = try engine.perform(.setText(field: "a", text: String(repeating: "y", count: 90)))
        _ = try engine.perform(.setText(field: "b", text: String(repeating: "z", count: 10)))
        XCTAssertThrowsError(try engine.perform(.insertText(field: "b", text: "!")))
        XCTAssertEqual(engine.countedTextBytes, 102)
        _ = try engine.perform(.delete(field: "a"))
        _ = try engine.perform(.insertText(field: "b", text: "!"))
        XCTAssertEqual(engine.countedTextBytes, 102)
        XCTAssertEqual(engine.countedTextBytes, engine.heldTextBytes)
    }

    /// Labels, placeholders, pattern hints, hints and ids count once per field that holds
    /// them, a preset's included; near the budget a label no longer than the one it
    /// replaces is set, a longer one is refused and changes nothing.
    func testDescribingStringsCountPerField() throws {
        let titled: [String: FieldOptions] = ["titled": options { $0.label = "12345"; $0.hints = ["k": "1"] }]
        var engine = FormEngine(limits: EngineLimits(maxTotalText: 30))
        // Each field: id 1 + label 5 + hint key 1 + value 1 = 8 bytes; three fields 24.
        _ = try engine.perform(.defineForm(fields: [field("a", ["titled"]), field("b", ["titled"]), field("c", ["titled"])], presets: titled))
        XCTAssertEqual(engine.countedTextBytes, 24)
        XCTAssertThrowsError(try engine.perform(.addField(field("d", ["titled"]), after: nil))) { error in
            guard case .limitExceeded(let limit, _)? = error as? FormError else { return XCTFail("\(error)") }
            XCTAssertEqual(limit, "maxTotalText")
        }
        XCTAssertEqual(engine.countedTextBytes, 24)
        XCTAssertEqual(engine.forms["default"]?.fields.count, 3)
        _ = try engine.perform(.configureField("a", options: options { $0.placeholder = "123456" }, configuration: nil))
        XCTAssertEqual(engine.countedTextBytes, 30)
        _ = try engine.perform(.configureField("a", options: options { $0.placeholder = "abcdef" }, configuration: nil))
        XCTAssertThrowsError(try engine.perform(.configureField("b", options: options { $0.patternHint = "x" }, configuration: nil)))
        XCTAssertEqual(engine.forms["default"]?.fields[1].attributes.patternHint, nil)
        _ = try engine.perform(.configureField("a", options: options { $0.label = .some(nil) }, configuration: nil))
        XCTAssertEqual(engine.countedTextBytes, 25)
        XCTAssertEqual(engine.countedTextBytes, engine.heldTextBytes)
    }
}
