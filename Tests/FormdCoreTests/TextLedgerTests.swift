@testable import FormdCore
import FormdTestSupport
import XCTest

/// The engine's count of the text all forms hold (`--max-total-text`) is exact after every
/// command, whatever changes texts: edits, undo and redo, `reset`, `defineForm` over a
/// form, `addField`, `removeField`, a new own or preset text, restored and loaded forms.
final class TextLedgerTests: XCTestCase {
    private static let forms = ["default", "f1", "f2"]
    private static let presets: [String: FieldOptions] = ["greeting": options { $0.text = "héllo" }]

    private static func specs(_ count: Int, _ rng: inout SplitMix64) -> [FieldSpec] {
        (0..<count).map { i in
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return field("x\(i)")
            case 1: return field("x\(i)", ["greeting"])
            default: return field("x\(i)") { $0.text = "init\(i)" }
            }
        }
    }

    /// Random commands over three forms under a budget they often reach: after each, the
    /// counted bytes are the bytes a pass over every field finds, within the budget.
    func testTheCountIsExactAfterEveryCommand() throws {
        let budget = 400
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
            case 90..<95: return .configureField(id, options: options { $0.text = text }, configuration: nil)
            default: return .configureField(id, options: FieldOptions(), configuration: Bool.random(using: &rng) ? ["greeting"] : [])
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
        XCTAssertEqual(engine.countedTextBytes, 5 + 8)
        XCTAssertEqual(engine.countedTextBytes, engine.heldTextBytes)
        try engine.load(count: 2, presets: [:], into: "a") { i throws(FormError) in field("y\(i)") { $0.text = "abc" } }
        XCTAssertEqual(engine.countedTextBytes, 2 * 6)
        XCTAssertEqual(engine.countedTextBytes, engine.heldTextBytes)
    }

    /// Near the budget an edit that does not lengthen the text is still carried out, and
    /// one that would pass the budget by a byte is refused, changing nothing.
    func testTheBudgetActsOnTheExactCount() throws {
        var engine = FormEngine(limits: EngineLimits(maxTotalText: 100))
        _ = try engine.perform(.defineForm(fields: [field("a"), field("b")], presets: [:]))
        _ = try engine.perform(.setText(field: "a", text: String(repeating: "x", count: 90)))
        _ = try engine.perform(.setText(field: "a", text: String(repeating: "y", count: 90)))
        _ = try engine.perform(.setText(field: "b", text: String(repeating: "z", count: 10)))
        XCTAssertThrowsError(try engine.perform(.insertText(field: "b", text: "!")))
        XCTAssertEqual(engine.countedTextBytes, 100)
        _ = try engine.perform(.delete(field: "a"))
        _ = try engine.perform(.insertText(field: "b", text: "!"))
        XCTAssertEqual(engine.countedTextBytes, 100)
        XCTAssertEqual(engine.countedTextBytes, engine.heldTextBytes)
    }
}
