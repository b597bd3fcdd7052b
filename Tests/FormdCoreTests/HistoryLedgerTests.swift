@testable import FormdCore
import FormdTestSupport
import XCTest

/// The engine's count of undo history is exact after every command, whatever takes
/// histories out of reach (`reset`, `defineForm` over a form, `removeField`, a secure
/// field's new rules), and stays within the budget.
final class HistoryLedgerTests: XCTestCase {
    private static let forms = ["default", "f1", "f2"]

    private static func specs(_ count: Int) -> [FieldSpec] {
        (0..<count).map { field("x\($0)") }
    }

    /// Random commands over three forms, texts up to a third of the budget: after each,
    /// the counted bytes are the held bytes and within the budget.
    func testTheCountIsExactAfterEveryCommand() throws {
        let budget = 6_000
        try runRandomCommands(limits: EngineLimits(maxUndoSteps: 8, maxUndoText: budget), seeds: 1...6, count: 3_000,
                              forms: Self.forms, maxText: budget / 3,
                              define: { _ in .defineForm(fields: Self.specs(4), presets: [:]) }) { target, rng in
            let (id, text) = (target.id, target.text)
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<30: return .setText(field: id, text: text)
            case 30..<50: return .insertText(field: id, text: text)
            case 50..<58: return .delete(field: id)
            case 58..<70: return .undo(field: id)
            case 70..<78: return .redo(field: id)
            case 78..<83: return .reset
            case 83..<87: return .defineForm(fields: Self.specs(Int.random(in: 1...5, using: &rng)), presets: [:])
            case 87..<91: return .removeField(id)
            case 91..<95: return .addField(field(id), after: nil)
            case 95..<97: return .setSecure(field: id, Bool.random(using: &rng))
            default: return .configureField(id, options: options { $0.pattern = .some(try? FieldPattern("[a-z]*")) }, configuration: nil)
            }
        } check: { engine, _, label in
            let held = engine.heldHistoryBytes
            XCTAssertEqual(engine.countedHistoryBytes, held, label)
            XCTAssertLessThanOrEqual(held, budget, label)
        }
    }

    /// A small form's history grown and reset over and over next to 2,000 fields whose
    /// histories fill most of the budget: the reset steps go at once, their 8,000 bytes of
    /// text and their count, are never put back, and never push the big form's steps out.
    func testResetStepsGoAtOnceAndCrowdOutNothing() throws {
        let budget = 2_000 * 130 + 20_000
        var engine = FormEngine(limits: EngineLimits(maxUndoText: budget))
        _ = try engine.perform(.defineForm(fields: Self.specs(2_000), presets: [:]), on: "big")
        for i in 0..<2_000 { _ = try engine.perform(.setText(field: "x\(i)", text: "ab"), on: "big") }
        let big = engine.countedHistoryBytes
        _ = try engine.perform(.defineForm(fields: Self.specs(1), presets: [:]), on: "small")
        let long = String(repeating: "z", count: 8_000)
        for _ in 0..<100 {
            _ = try engine.perform(.setText(field: "x0", text: long), on: "small")
            _ = try engine.perform(.setText(field: "x0", text: "y"), on: "small")
            XCTAssertEqual(engine.undoLog.textHeld, long.utf8.count, "the step that replaced the long text holds it")
            _ = try engine.perform(.reset, on: "small")
            XCTAssertEqual(try engine.perform(.undo(field: "x0"), on: "small").result, .edit(applied: false, reason: .nothingToUndo))
            XCTAssertEqual(engine.countedHistoryBytes, engine.heldHistoryBytes)
            XCTAssertEqual(engine.countedHistoryBytes, big, "the reset step counts nothing")
            XCTAssertEqual(engine.undoLog.textHeld, 0, "and holds no text (the big form's steps hold what they removed: nothing)")
        }
        XCTAssertEqual(try engine.perform(.undo(field: "x0"), on: "big").result, .edit(applied: true, reason: nil),
                       "the big form's oldest step is still there")
    }
}
