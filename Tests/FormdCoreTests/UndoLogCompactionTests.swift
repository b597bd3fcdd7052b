@testable import FormdCore
import FormdTestSupport
import XCTest

/// The history log's compaction (`UndoLog.compact`) is invisible: an engine that compacts
/// after nearly every command and one that never does give the same results, events and
/// texts, command by command, and the log's count stays exact; and a field typed in far
/// past `--max-undo` keeps the log bounded.
final class UndoLogCompactionTests: XCTestCase {
    private static let forms = ["default", "other"]
    private static let ids = ["a", "b", "c"]

    /// A random command among edits (runs resumed across fields), undo, redo, reset and
    /// field removal or re-adding.
    private static func command(_ rng: inout SplitMix64) -> FormCommand {
        let id = ids[rng.next(below: ids.count)]
        let words = ["x", "yz", "é", "🙂", "hello "]
        switch rng.next(below: 20) {
        case 0..<6: return .insertText(field: id, text: words[rng.next(below: words.count)])
        case 6..<8: return .delete(field: id)
        case 8: return .setText(field: id, text: words[rng.next(below: words.count)])
        case 9: return .moveCaret(field: id, to: .start, extend: false)
        case 10..<14: return .undo(field: id)
        case 14..<17: return .redo(field: id)
        case 17: return .reset
        case 18: return .removeField(id)
        default: return .addField(field(id), after: nil)
        }
    }

    private func run(seed: UInt64, limits: EngineLimits, commands: Int, compare: Bool) throws {
        var rng = SplitMix64(seed: seed)
        var compacting = FormEngine(limits: limits, compactionFloor: 0)
        var plain = FormEngine(limits: limits, compactionFloor: .max)
        for form in Self.forms {
            let define = FormCommand.defineForm(fields: Self.ids.map { field($0) }, presets: [:])
            _ = try compacting.perform(define, on: form)
            _ = try plain.perform(define, on: form)
        }
        var compacted = false
        for step in 0..<commands {
            let command = Self.command(&rng)
            let form = Self.forms[rng.next(below: Self.forms.count)]
            let a = Result { () throws(FormError) in try compacting.perform(command, on: form) }
            let b = Result { () throws(FormError) in try plain.perform(command, on: form) }
            let context = "seed \(seed), command \(step): \(command) on \(form)"
            XCTAssertEqual(compacting.countedHistoryBytes, compacting.heldHistoryBytes, context)
            XCTAssertEqual(plain.countedHistoryBytes, plain.heldHistoryBytes, context)
            XCTAssertEqual(compacting.countedHistoryBytes, plain.countedHistoryBytes, context)
            if step % 32 == 0 { XCTAssertEqual(compacting.undoLog.textHeld, plain.undoLog.textHeld, context) }
            guard compare else { continue }
            XCTAssertEqual(String(describing: a), String(describing: b), context)
            for name in Self.forms {
                XCTAssertEqual(compacting.form(name)?.fields.map(\.text), plain.form(name)?.fields.map(\.text), context)
            }
            XCTAssertLessThanOrEqual(compacting.undoLog.held, plain.undoLog.held, context)
            compacted = compacted || compacting.undoLog.held < plain.undoLog.held
        }
        XCTAssert(compacted || !compare, "seed \(seed): the log never held a record out of reach")
    }

    func testACompactingEngineAnswersAsOneThatNeverCompacts() throws {
        for seed in UInt64(1)...12 {
            let steps = [1, 2, 3, 100][Int(seed % 4)]
            try run(seed: seed, limits: EngineLimits(maxUndoSteps: steps), commands: 1500, compare: true)
        }
    }

    func testUnderATightBudgetTheCountStaysExact() throws {
        for seed in UInt64(20)...25 {
            try run(seed: seed, limits: EngineLimits(maxUndoSteps: Int(seed % 3) + 1, maxUndoText: 2_000),
                    commands: 1500, compare: true)
        }
    }

    func testOneFieldPastItsLimitKeepsTheLogBounded() throws {
        var engine = FormEngine(limits: EngineLimits(maxUndoSteps: 5), compactionFloor: 64)
        _ = try engine.perform(.defineForm(fields: [field("a")], presets: [:]))
        var most = 0
        for i in 0..<3000 {
            _ = try engine.perform(.setText(field: "a", text: "t\(i)"))
            most = max(most, engine.undoLog.held)
        }
        XCTAssertLessThanOrEqual(most, 65, "past the floor the log compacts to the 5 live steps")
        for i in (2995..<3000).reversed() {
            _ = try engine.perform(.undo(field: "a"))
            XCTAssertEqual(engine.form("default")?.fields[0].text, "t\(i - 1)")
        }
        XCTAssertEqual(try engine.perform(.undo(field: "a")).result, .edit(applied: false, reason: .nothingToUndo))
    }
}
