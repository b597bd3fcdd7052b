@testable import FormdCore
import FormdTestSupport
import XCTest

/// The undo stack keeps the last `limit` steps; steps that fell past it are dropped in
/// bulk, which must never show.
final class EditHistoryTests: XCTestCase {
    func step(_ i: Int) -> EditHistory.Step {
        EditHistory.Step(kind: .other, startUTF8: i, removed: "", inserted: "\(i)", anchorBeforeUTF8: 0, headBeforeUTF8: 0)
    }

    func testOnlyTheLastLimitStepsCanBeUndoneWhateverWasDropped() {
        for limit in [0, 1, 3, 100] {
            for count in [0, 1, limit, limit + 1, 2 * limit + 3, 5 * limit + 7] {
                var h = EditHistory(limit: limit)
                for i in 0..<count { h.record(step(i)) }
                var undone: [Int] = []
                while let s = h.popUndo() { undone.append(s.startUTF8) }
                XCTAssertEqual(undone, Array((max(0, count - limit)..<count).reversed()), "limit \(limit), \(count) steps")
                // Redo puts them all back, and they can be undone again.
                var redone = 0
                while h.popRedo() != nil { redone += 1 }
                XCTAssertEqual(redone, undone.count)
                XCTAssertEqual(h.popUndo()?.startUTF8, count > 0 && limit > 0 ? count - 1 : nil)
            }
        }
    }

    func testHistoriesWithTheSameLiveStepsAreEqual() {
        var a = EditHistory(limit: 3), b = EditHistory(limit: 3)
        for i in 0..<50 { a.record(step(i)) }
        for i in 47..<50 { b.record(step(i)) }
        XCTAssertEqual(a, b, "the steps that fell past the limit do not count")
        b.record(step(50))
        XCTAssertNotEqual(a, b)
    }

    /// `bytes` is what the live steps cost, and `settle` reports every change of it once,
    /// through any mix of steps, runs, undo, redo, the step limit, drops and clears.
    func testBytesAreTheLiveStepsCostAndSettleReportsEachChangeOnce() {
        var rng = SplitMix64(seed: 21)
        var h = EditHistory(limit: 5)
        var reported = 0
        var clock = 0
        for _ in 0..<5000 {
            let text = String(repeating: "é", count: Int.random(in: 0...3, using: &rng))
            switch Int.random(in: 0..<8, using: &rng) {
            case 0, 1: h.record(EditHistory.Step(kind: .typing, startUTF8: 0, removed: "", inserted: text, anchorBeforeUTF8: 0, headBeforeUTF8: 0))
            case 2: h.record(EditHistory.Step(kind: .deleting, startUTF8: 0, removed: text, inserted: "", anchorBeforeUTF8: 0, headBeforeUTF8: 0))
            case 3: h.record(EditHistory.Step(kind: .other, startUTF8: 0, removed: text, inserted: text + "x", anchorBeforeUTF8: 0, headBeforeUTF8: 0))
            case 4: _ = h.popUndo()
            case 5: _ = h.popRedo()
            case 6: reported -= h.drop(before: Int.random(in: 0...clock, using: &rng))
            default: if Int.random(in: 0..<20, using: &rng) == 0 { h.clear() } else { h.close() }
            }
            if Bool.random(using: &rng) {
                clock += 1
                reported += h.settle(clock: clock, next: 0).change
                var cost = 0
                h.forEachStep { _, c in cost += c }
                XCTAssertEqual(h.bytes, cost)
                XCTAssertEqual(reported, cost, "every change reported once")
            }
        }
    }

    func testDropTakesTheOldestUndoStepsAndAnOldRedoStackWhole() {
        var h = EditHistory(limit: 10)
        for i in 1...4 {
            h.record(step(i))
            _ = h.settle(clock: i, next: 0)
        }
        _ = h.popUndo()
        _ = h.popUndo()
        // Undo holds serials 1, 2; redo 4 under 3. Dropping before 2 takes step 1 only.
        XCTAssertEqual(h.drop(before: 2), step(1).cost)
        XCTAssertEqual(h.popRedo()?.startUTF8, 3)
        _ = h.popUndo()
        // Redo's next step (3) is older than 4: the whole redo stack goes with it.
        XCTAssertEqual(h.drop(before: 4), step(2).cost + step(3).cost + step(4).cost)
        XCTAssertNil(h.popRedo())
        XCTAssertNil(h.popUndo())
        XCTAssertEqual(h.bytes, 0)
    }
}
