@testable import FormdCore
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
}
