@testable import FormdCore
import FormdTestSupport
import XCTest

/// The engine's history log (`UndoLog`) against a model that keeps each field's steps in
/// arrays, as a field's own stacks would: every undo and redo gives the same step, every
/// growth the same figure, and the log's total is its recount and the model's.
final class UndoLogTests: XCTestCase {
    /// A record as the model keeps it: its number in the log and what it holds.
    private struct Record {
        var number: Int
        var kind: EditHistory.Kind
        var startUTF8: Int
        var removed: String
        var inserted: String
        var anchor: Int
        var head: Int
        var cost: Int { removed.utf8.count + inserted.utf8.count + UndoLog.recordOverhead }
    }

    /// One field's stacks: steps of records, oldest first; past `limit` the oldest step goes.
    private struct ModelField {
        var undo: [[Record]] = []
        var redo: [[Record]] = []
        var run: (kind: EditHistory.Kind, end: Int)? = nil
    }

    /// Every record ever made, in order, how many of the first the budget dropped, and
    /// which died (out of reach: past the limit, a cleared redo stack, a forgotten field).
    private struct Model {
        let limit: Int
        var fields: [ModelField]
        var records: [Record] = []
        var dead: [Bool] = []
        var dropped = 0
        var total = 0
        var oldest: Int { dropped }

        /// Text bytes of the records that can still be undone or redone: the log holds no other.
        var textHeld: Int {
            records.indices.reduce(0) { $0 + (dead[$1] ? 0 : records[$1].removed.utf8.count + records[$1].inserted.utf8.count) }
        }

        /// The records of `step` the log still holds.
        func live(_ step: [Record]) -> [Record] { step.filter { $0.number >= oldest } }

        mutating func record(_ f: Int, _ r: Record) {
            releaseRedo(f)
            if limit == 0 {
                fields[f].run = nil
                return
            }
            if let run = fields[f].run, run.kind == r.kind, let top = fields[f].undo.last?.last, top.number >= oldest {
                let continues = r.kind == .typing ? r.removed.isEmpty && r.startUTF8 == run.end
                    : r.kind == .deleting && r.inserted.isEmpty && r.startUTF8 + r.removed.utf8.count == run.end
                if continues {
                    fields[f].run!.end = r.kind == .typing ? run.end + r.inserted.utf8.count : r.startUTF8
                    if top.number == records.count - 1 {
                        // Grown in place: the record keeps its number and gains the text.
                        let last = fields[f].undo.count - 1, n = fields[f].undo[last].count - 1
                        if r.kind == .typing {
                            fields[f].undo[last][n].inserted += r.inserted
                        } else {
                            fields[f].undo[last][n].removed = r.removed + fields[f].undo[last][n].removed
                            fields[f].undo[last][n].startUTF8 = r.startUTF8
                        }
                        total += r.inserted.utf8.count + r.removed.utf8.count
                        records[top.number] = fields[f].undo[last][n]
                    } else {
                        let added = add(r)
                        fields[f].undo[fields[f].undo.count - 1].append(added)
                    }
                    return
                }
            }
            fields[f].undo.append([add(r)])
            if fields[f].undo.count > limit {
                // Out of reach at once: its records die, whatever the budget left of them.
                for r in fields[f].undo.removeFirst() { release(r.number) }
            }
            fields[f].run = r.kind == .other ? nil : (r.kind, r.kind == .typing ? r.startUTF8 + r.inserted.utf8.count : r.startUTF8)
        }

        /// A cleared or forgotten redo stack dies.
        private mutating func releaseRedo(_ f: Int) {
            for step in fields[f].redo { for r in step { release(r.number) } }
            fields[f].redo = []
        }

        /// A forgotten field's records die at once.
        mutating func forget(_ f: Int) {
            for step in fields[f].undo { for r in step { release(r.number) } }
            releaseRedo(f)
            fields[f] = ModelField()
        }

        private mutating func release(_ n: Int) {
            guard n >= oldest, !dead[n] else { return }
            total -= records[n].cost
            dead[n] = true
        }

        private mutating func add(_ r: Record) -> Record {
            var r = r
            r.number = records.count
            records.append(r)
            dead.append(false)
            total += r.cost
            return r
        }

        /// A step as undo and redo apply it: its live records put together.
        static func step(_ records: [Record]) -> EditHistory.Step {
            EditHistory.Step(startUTF8: records.map(\.startUTF8).min()!,
                             removed: records.reversed().map(\.removed).joined(),
                             inserted: records.map(\.inserted).joined(),
                             anchorBeforeUTF8: records[0].anchor, headBeforeUTF8: records[0].head)
        }

        mutating func undo(_ f: Int) -> EditHistory.Step? {
            fields[f].run = nil
            guard let top = fields[f].undo.last, !live(top).isEmpty else { return nil }
            fields[f].undo.removeLast()
            fields[f].redo.append(live(top))
            return Model.step(live(top))
        }

        /// A redo step the log dropped part of takes the whole redo stack with it.
        mutating func redo(_ f: Int) -> EditHistory.Step? {
            fields[f].run = nil
            guard let top = fields[f].redo.last else { return nil }
            guard live(top).count == top.count else {
                fields[f].redo = []
                return nil
            }
            fields[f].redo.removeLast()
            fields[f].undo.append(top)
            return Model.step(top)
        }

        func undoGrowth(_ f: Int) -> Int {
            guard let top = fields[f].undo.last else { return 0 }
            return live(top).reduce(0) { $0 + $1.removed.utf8.count - $1.inserted.utf8.count }
        }

        func redoGrowth(_ f: Int) -> Int {
            guard let top = fields[f].redo.last, live(top).count == top.count else { return 0 }
            return top.reduce(0) { $0 + $1.inserted.utf8.count - $1.removed.utf8.count }
        }

        /// A redo stack whose next step is dropped dies with it.
        mutating func drop(toAtMost goal: Int) {
            while total > goal && dropped < records.count {
                if !dead[dropped] {
                    total -= records[dropped].cost
                    dead[dropped] = true
                    if let f = fields.indices.first(where: { fields[$0].redo.last?.first?.number == dropped }) { releaseRedo(f) }
                }
                dropped += 1
            }
        }
    }

    private static func text(_ rng: inout SplitMix64) -> String {
        String((0..<rng.next(below: 4)).map { _ in ["a", "é", "ü", "中"][rng.next(below: 4)] })
    }

    /// Random edits (typing and Backspaces that resume their runs, interleaved across
    /// fields, and other steps), undo, redo, runs closed, fields cleared or replaced
    /// (reset, removal, redefinition), under tight step limits and budgets; half the runs
    /// trim and compact the log after every command, half never do.
    func testTheLogUndoesAndRedoesAsPerFieldStacksWould() {
        for seed: UInt64 in 1...40 {
            var rng = SplitMix64(seed: seed)
            let limit = [0, 1, 2, 3, 5, 100][rng.next(below: 6)]
            let budget = [300, 700, 2_000, 1 << 30][rng.next(below: 4)]
            let fieldCount = 1 + rng.next(below: 4)
            // Odd seeds cut the dead front and compact whenever they may.
            var log = UndoLog(limit: limit, compactionFloor: seed % 2 == 1 ? 0 : .max)
            var heads = Array(repeating: EditHistory(), count: fieldCount)
            var model = Model(limit: limit, fields: Array(repeating: ModelField(), count: fieldCount))
            for n in 0..<3_000 {
                let f = rng.next(below: fieldCount)
                let label = "seed \(seed), command \(n), field \(f), limit \(limit), budget \(budget)"
                let op = rng.next(below: 20)
                switch op {
                case 0..<10:
                    let kind = [EditHistory.Kind.typing, .typing, .deleting, .other][rng.next(below: 4)]
                    var start = rng.next(below: 40)
                    var removed = Self.text(&rng), inserted = Self.text(&rng)
                    if let run = model.fields[f].run, rng.next(below: 4) != 0 {
                        // Mostly where the open run goes on.
                        if kind == .typing { start = run.end; removed = "" }
                        if kind == .deleting { inserted = ""; start = max(0, run.end - removed.utf8.count) }
                    }
                    let r = Record(number: -1, kind: kind, startUTF8: start, removed: removed, inserted: inserted,
                                   anchor: rng.next(below: 40), head: rng.next(below: 40))
                    log.record(kind, startUTF8: start, removed: removed, inserted: inserted,
                               anchorBeforeUTF8: r.anchor, headBeforeUTF8: r.head, into: &heads[f])
                    model.record(f, r)
                case 10..<14:
                    XCTAssertEqual(log.popUndo(&heads[f]), model.undo(f), label)
                case 14..<17:
                    XCTAssertEqual(log.popRedo(&heads[f]), model.redo(f), label)
                case 17:
                    heads[f].close()
                    model.fields[f].run = nil
                default:
                    // Reset, removal or redefinition: the field's stacks start anew.
                    log.forget(&heads[f])
                    model.forget(f)
                }
                if log.total > budget { log.drop(toAtMost: budget - budget / 8) }
                if model.total > budget { model.drop(toAtMost: budget - budget / 8) }
                log.trimFront()
                if log.compactionDue { log.compact(fields: fieldCount) { visit in for i in heads.indices { visit(&heads[i]) } } }
                XCTAssertEqual(log.total, model.total, label)
                if n % 32 == 0 { XCTAssertEqual(log.textHeld, model.textHeld, label) }
                XCTAssertEqual(log.recount, log.total, label)
                XCTAssertLessThanOrEqual(log.total, budget, label)
                XCTAssertEqual(log.undoGrowth(of: heads[f]), model.undoGrowth(f), label)
                XCTAssertEqual(log.redoGrowth(of: heads[f]), model.redoGrowth(f), label)
                if log.total != model.total { return }
            }
        }
    }

    /// A copy of the log (an engine copied, as a test or a preview does) keeps its records
    /// however the original changes: the storage is shared only until one of them writes.
    func testACopyKeepsItsStepsWhateverTheOriginalDoes() {
        var log = UndoLog(limit: 3, compactionFloor: 0)
        var h = EditHistory()
        for i in 0..<5 {
            log.record(.other, startUTF8: i, removed: "", inserted: "t\(i)", anchorBeforeUTF8: 0, headBeforeUTF8: 0, into: &h)
        }
        let (saved, savedHistory) = (log, h)
        _ = log.popUndo(&h)
        log.record(.other, startUTF8: 0, removed: "t", inserted: "x", anchorBeforeUTF8: 0, headBeforeUTF8: 0, into: &h)
        log.drop(toAtMost: 0)
        log.trimFront()
        log.compact(fields: 1) { $0(&h) }
        XCTAssertEqual(log.total, 0)
        XCTAssertNil(log.popUndo(&h))
        var copy = saved, copyHistory = savedHistory
        XCTAssertEqual(copy.total, 3 * (2 + UndoLog.recordOverhead))
        var undone: [String] = []
        while let step = copy.popUndo(&copyHistory) { undone.append(step.inserted) }
        XCTAssertEqual(undone, ["t4", "t3", "t2"])
        XCTAssertEqual(copy.popRedo(&copyHistory)?.inserted, "t2")
    }

    /// Steps past the limit are out of reach at once, whatever the log still holds.
    func testOnlyTheLastLimitStepsCanBeUndone() {
        for limit in [0, 1, 3, 100] {
            for count in [0, 1, limit, limit + 1, 2 * limit + 3] {
                var log = UndoLog(limit: limit)
                var h = EditHistory()
                for i in 0..<count {
                    log.record(.other, startUTF8: i, removed: "", inserted: "\(i)", anchorBeforeUTF8: 0, headBeforeUTF8: 0, into: &h)
                }
                var undone: [Int] = []
                while let s = log.popUndo(&h) { undone.append(s.startUTF8) }
                XCTAssertEqual(undone, Array((max(0, count - limit)..<count).reversed()), "limit \(limit), \(count) steps")
                var redone = 0
                while log.popRedo(&h) != nil { redone += 1 }
                XCTAssertEqual(redone, undone.count)
                XCTAssertEqual(log.popUndo(&h)?.startUTF8, count > 0 && limit > 0 ? count - 1 : nil)
            }
        }
    }
}
