@testable import FormdCore
import FormdTestSupport
import XCTest

/// The history log's ring buffer (`UndoLogStorage`) and its texts' ring (`UndoTextArena`)
/// against arrays: records appended with texts of every size, some dying in the middle,
/// the oldest cut off (moving both rings' starts past their buffers' ends), the newest cut
/// off, the last text grown where it lies or moved, the text buffer filled until its live
/// slots move to a new one, copies taken: every live record keeps its number and bytes,
/// in order, and the text buffer stays within what its live slots and records call for.
final class UndoLogStorageTests: XCTestCase {
    private static func record(_ n: Int, textAt: Int, bytes: Int) -> UndoLog.Record {
        UndoLog.Record(number: n, kind: .other, joinsPrevious: false, secret: n % 5 == 0, textAt: textAt, link: n - 3,
                       startUTF8: Int32(n % 1000), removedUTF8: Int32(bytes), insertedUTF8: Int32(n % 7),
                       anchorBeforeUTF8: 0, headBeforeUTF8: 0)
    }

    /// The bytes record `n` holds, `count` of them.
    private static func bytes(_ n: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: n &* 31 &+ $0) } }

    private static func held(_ storage: UndoLogStorage, _ i: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: storage.textBytes(of: i), count: storage[i].pointee.heldUTF8))
    }

    func testTheRingsKeepTheirRecordsAndTextsInOrderThroughCutsGrowthAndCopies() {
        var rng = SplitMix64(seed: 7)
        let storage = UndoLogStorage()
        // Each record's number and whether it lives.
        var model: [(number: Int, live: Bool)] = []
        var copies: [(UndoLogStorage, [(number: Int, live: Bool)])] = []
        var next = 0, mostLive = 0, mostCount = 0
        for step in 0..<20_000 {
            switch rng.next(below: 12) {
            case 0..<6:
                let size = rng.next(below: 8) == 0 ? rng.next(below: 3000) : rng.next(below: 20)
                let at = storage.reserveText(max(size, next % 7))
                storage.append(Self.record(next, textAt: at, bytes: size))
                Self.bytes(next, size).withUnsafeBufferPointer { storage.textBytes(of: storage.count - 1).update(from: $0.baseAddress!, count: size) }
                model.append((next, true))
                next += 1
            case 6 where !model.isEmpty:
                // A Backspace run grows the last record's text at its start.
                let i = model.count - 1, n = model[i].number, old = Int(storage[i].pointee.removedUTF8), more = 1 + rng.next(below: 40)
                guard model[i].live else { break }
                storage.resizeLastText(to: max(old + more, n % 7), shifting: more)
                storage[i].pointee.removedUTF8 = Int32(old + more)
                Self.bytes(n, old + more).withUnsafeBufferPointer { storage.textBytes(of: i).update(from: $0.baseAddress!, count: old + more) }
            case 7..<9 where !model.isEmpty:
                // A record in the middle dies.
                let i = rng.next(below: model.count)
                storage[i].pointee.dead = true
                model[i].live = false
            case 9 where !model.isEmpty:
                // Only dead records are cut off: kill the first few, as the log does.
                let n = 1 + rng.next(below: min(model.count, 70))
                for i in 0..<n { storage[i].pointee.dead = true }
                storage.removeFirst(n)
                model.removeFirst(n)
                storage.text.release(upTo: model.isEmpty ? nil : storage[0].pointee.textAt)
            case 10 where !model.isEmpty:
                let n = rng.next(below: model.count)
                for i in n..<model.count { storage[i].pointee.dead = true }
                storage.truncate(to: n)
                model.removeLast(model.count - n)
            default:
                if step % 50 == 9 { copies.append((storage.copy(), model)) }
            }
            XCTAssertEqual(storage.count, model.count)
            let numbers = (0..<storage.count).map { 2 * $0 + Int(storage[$0].pointee.startUTF8) }
            XCTAssertEqual(numbers, model.indices.map { 2 * $0 + model[$0].number % 1000 }, "step \(step)")
            for (i, r) in model.enumerated() where r.live {
                XCTAssertEqual(Self.held(storage, i), Self.bytes(r.number, storage[i].pointee.heldUTF8), "step \(step), record \(r.number)")
            }
            // The buffer holds what lives, half as much again, 4 bytes a record and the
            // largest slot asked for.
            mostLive = max(mostLive, model.indices.reduce(0) { $0 + (model[$1].live ? storage[$1].pointee.slotUTF8 : 0) })
            mostCount = max(mostCount, storage.count)
            XCTAssertLessThanOrEqual(storage.text.span, storage.text.capacity)
            XCTAssertLessThanOrEqual(storage.text.capacity, max(4096, (mostLive + 3040) * 3 / 2 + 4 * mostCount), "step \(step)")
        }
        for (copy, model) in copies {
            XCTAssertEqual(copy.count, model.count)
            for (i, r) in model.enumerated() where r.live {
                XCTAssertEqual(Self.held(copy, i), Self.bytes(r.number, copy[i].pointee.heldUTF8), "a copy keeps what it held")
            }
        }
    }

    /// A record is the 40 bytes `UndoLog.recordOverhead` and the docs count on.
    func testARecordIsFortyBytes() {
        XCTAssertEqual(MemoryLayout<UndoLog.Record>.stride, 40)
    }

    /// What retiring a record and putting one above it touch lies in its first
    /// `hotBytes`, the only bytes the log fetches ahead of them; the rest comes after
    /// (the flags byte, private, lies between the lengths and `upJoins`).
    func testWhatRetiringAndPushingTouchLiesInARecordsHotBytes() {
        let hot = UndoLog.Record.hotBytes
        for (name, field) in [("upBack", \UndoLog.Record.upBack), ("removedUTF8", \.removedUTF8), ("insertedUTF8", \.insertedUTF8)] as [(String, PartialKeyPath<UndoLog.Record>)] {
            XCTAssertLessThanOrEqual(MemoryLayout<UndoLog.Record>.offset(of: field)! + 4, hot, name)
        }
        XCTAssertLessThan(MemoryLayout<UndoLog.Record>.offset(of: \.upJoins)!, hot)
        for (name, field) in [("textAt", \UndoLog.Record.textAt), ("linkBack", \.linkBack), ("startUTF8", \.startUTF8),
                              ("anchorBeforeUTF8", \.anchorBeforeUTF8), ("headBeforeUTF8", \.headBeforeUTF8)] as [(String, PartialKeyPath<UndoLog.Record>)] {
            XCTAssertGreaterThanOrEqual(MemoryLayout<UndoLog.Record>.offset(of: field)!, hot, name)
        }
    }

    /// The text ring: a slot goes after the last one, at the buffer's start once the end
    /// has no room and the front has moved on, and nowhere while the held bytes wrap up
    /// to the front; the last slot grows where it lies only into free bytes.
    func testTheTextRingPlacesSlotsOnlyInFreeBytes() {
        var arena = UndoTextArena()
        arena.grow(to: 100)
        XCTAssertEqual(arena.reserve(60), 0)
        XCTAssertEqual(arena.reserve(30), 60)
        XCTAssertNil(arena.reserve(20), "10 bytes at the end, none before the front")
        XCTAssertTrue(arena.extendLast(by: 10))
        XCTAssertFalse(arena.extendLast(by: 1))
        arena.release(upTo: 60)
        XCTAssertEqual(arena.reserve(50), 0, "past the end: at the start, before the front")
        XCTAssertEqual(arena.span, 40 + 50)
        XCTAssertTrue(arena.extendLast(by: 10), "up to the front")
        XCTAssertFalse(arena.extendLast(by: 1))
        XCTAssertNil(arena.reserve(1))
        arena.release(upTo: 0)
        XCTAssertEqual(arena.span, 60, "the front moved into the stretch from the start: one stretch again")
        XCTAssertEqual(arena.reserve(40), 60)
        XCTAssertNil(arena.reserve(1))
        arena.release(upTo: nil)
        XCTAssertEqual(arena.span, 0)
        XCTAssertEqual(arena.reserve(100), 0)
    }
}
