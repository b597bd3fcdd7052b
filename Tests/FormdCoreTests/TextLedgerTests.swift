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
        for seed in UInt64(1)...8 {
            var rng = SplitMix64(seed: seed)
            var engine = FormEngine(limits: EngineLimits(maxUndoSteps: 8, maxTotalText: budget))
            for name in Self.forms {
                _ = try? engine.perform(.defineForm(fields: Self.specs(4, &rng), presets: Self.presets), on: name)
            }
            for n in 1...3_000 {
                let form = Self.forms.randomElement(using: &rng)!
                let id = "x\(Int.random(in: 0..<5, using: &rng))"
                let size = Bool.random(using: &rng) ? Int.random(in: 0...budget / 3, using: &rng) : Int.random(in: 0...3, using: &rng)
                let text = String(repeating: "abcé".randomElement(using: &rng)!, count: size)
                let command: FormCommand
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<25: command = .setText(field: id, text: text)
                case 25..<40: command = .insertText(field: id, text: text)
                case 40..<46: command = .delete(field: id)
                case 46..<50: command = .editAction(field: id, action: .paste, text: text)
                case 50..<54: command = .editAction(field: id, action: .cut, text: nil)
                case 54..<57: command = .select(field: id, start: 0, end: Int.random(in: 0...2, using: &rng))
                case 57..<65: command = .undo(field: id)
                case 65..<71: command = .redo(field: id)
                case 71..<75: command = .reset
                case 75..<79: command = .defineForm(fields: Self.specs(Int.random(in: 1...5, using: &rng), &rng), presets: Self.presets)
                case 79..<83: command = .removeField(id)
                case 83..<87: command = .addField(field(id) { $0.text = text }, after: nil)
                case 87..<90: command = .setSecure(field: id, Bool.random(using: &rng))
                case 90..<95: command = .configureField(id, options: options { $0.text = text }, configuration: nil)
                default: command = .configureField(id, options: FieldOptions(), configuration: Bool.random(using: &rng) ? ["greeting"] : [])
                }
                _ = try? engine.perform(command, on: form)
                let held = engine.heldTextBytes
                XCTAssertEqual(engine.countedTextBytes, held, "seed \(seed), command \(n): \(command)")
                XCTAssertLessThanOrEqual(held, budget, "seed \(seed), command \(n)")
            }
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
