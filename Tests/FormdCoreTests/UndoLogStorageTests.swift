@testable import FormdCore
import FormdTestSupport
import XCTest

/// The history log's ring buffer (`UndoLogStorage`) against an array: records appended,
/// the oldest cut off (moving the ring's start past the buffer's end), the newest cut off,
/// grown while wrapped and copied, always in order.
final class UndoLogStorageTests: XCTestCase {
    private static func record(_ n: Int, text: Bool) -> UndoLog.Record {
        UndoLog.Record(kind: .other, joinsPrevious: false, dead: !text, startUTF8: n, removed: text ? "r\(n)" : "",
                       inserted: text ? String(repeating: "i", count: n % 40) : "", anchorBeforeUTF8: 0, headBeforeUTF8: 0, link: n)
    }

    func testTheRingKeepsItsRecordsInOrderThroughCutsGrowthAndCopies() {
        var rng = SplitMix64(seed: 7)
        let storage = UndoLogStorage()
        var model: [Int] = []
        var copies: [(UndoLogStorage, [Int])] = []
        var next = 0
        for step in 0..<5_000 {
            switch rng.next(below: 10) {
            case 0..<6:
                storage.append(Self.record(next, text: true))
                model.append(next)
                next += 1
            case 6..<8 where !model.isEmpty:
                // Only dead records are cut off: kill the first few, as the log does.
                let n = 1 + rng.next(below: min(model.count, 70))
                for i in 0..<n { storage[i].pointee = Self.record(model[i], text: false) }
                storage.removeFirst(n)
                model.removeFirst(n)
            case 8 where !model.isEmpty:
                let n = rng.next(below: model.count)
                for i in n..<model.count { storage[i].pointee = Self.record(model[i], text: false) }
                storage.truncate(to: n)
                model.removeLast(model.count - n)
            default:
                if step % 50 == 9 { copies.append((storage.copy(), model)) }
            }
            XCTAssertEqual(storage.count, model.count)
            XCTAssertEqual((0..<storage.count).map { storage[$0].pointee.link }, model, "step \(step)")
        }
        for (copy, model) in copies {
            XCTAssertEqual((0..<copy.count).map { copy[$0].pointee.link }, model, "a copy keeps what it held")
            XCTAssertEqual((0..<copy.count).map { copy[$0].pointee.removed }, model.map { "r\($0)" })
        }
    }
}
