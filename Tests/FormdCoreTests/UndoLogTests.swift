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

        /// Text bytes of the records that can still be undone or redone: what each removed
        /// while it can be undone, what it inserted while it can be redone.
        var textHeld: Int {
            let undone = Set(fields.flatMap { $0.redo.joined().map(\.number) })
            return records.indices.reduce(0) {
                $0 + (dead[$1] || $1 < oldest ? 0 : (undone.contains($1) ? records[$1].inserted : records[$1].removed).utf8.count)
            }
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

        /// A step as undo applies it: its live records put together, newest first.
        static func undoStep(_ records: [Record]) -> EditHistory.Step {
            EditHistory.Step(startUTF8: records.map(\.startUTF8).min()!,
                             replacedUTF8: records.reduce(0) { $0 + $1.inserted.utf8.count },
                             text: records.reversed().map(\.removed).joined(),
                             anchorBeforeUTF8: records[0].anchor, headBeforeUTF8: records[0].head)
        }

        /// A step as redo applies it: its records put together, oldest first.
        static func redoStep(_ records: [Record]) -> EditHistory.Step {
            EditHistory.Step(startUTF8: records.map(\.startUTF8).min()!,
                             replacedUTF8: records.reduce(0) { $0 + $1.removed.utf8.count },
                             text: records.map(\.inserted).joined(),
                             anchorBeforeUTF8: records[0].anchor, headBeforeUTF8: records[0].head)
        }

        mutating func undo(_ f: Int) -> EditHistory.Step? {
            fields[f].run = nil
            guard let top = fields[f].undo.last, !live(top).isEmpty else { return nil }
            fields[f].undo.removeLast()
            fields[f].redo.append(live(top))
            return Model.undoStep(live(top))
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
            return Model.redoStep(top)
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

    /// Up to `most` random characters, some of two or three bytes, some pieces long.
    private static func text(_ rng: inout SplitMix64, most: Int = 4) -> String {
        let n = rng.next(below: 8) == 0 ? rng.next(below: 60) : rng.next(below: most)
        return String((0..<n).map { _ in ["a", "é", "ü", "中"][rng.next(below: 4)] })
    }

    /// The UTF-8 offset of a character boundary of `text` at or before `offset`.
    private static func boundary(_ text: [UInt8], atMost offset: Int) -> Int {
        var i = min(offset, text.count)
        while i > 0 && i < text.count && text[i] & 0xC0 == 0x80 { i -= 1 }
        return i
    }

    /// Random edits of real texts (typing and Backspaces that resume their runs,
    /// interleaved across fields, and other steps), undo, redo, runs closed, fields cleared
    /// or replaced (reset, removal, redefinition), under tight step limits and budgets;
    /// half the runs trim and compact the log after every command, half never do. Undo and
    /// redo take the text they put aside from the field's text, which the test keeps as
    /// the engine would; the text's buffer stays bounded by what the log counts.
    func testTheLogUndoesAndRedoesAsPerFieldStacksWould() {
        for seed: UInt64 in 1...40 {
            var rng = SplitMix64(seed: seed)
            let limit = [0, 1, 2, 3, 5, 100][rng.next(below: 6)]
            let budget = [300, 700, 2_000, 20_000, 1 << 30][rng.next(below: 5)]
            let fieldCount = 1 + rng.next(below: 4)
            // Odd seeds cut the dead front and compact whenever they may.
            var log = UndoLog(limit: limit, compactionFloor: seed % 2 == 1 ? 0 : .max)
            var heads = Array(repeating: EditHistory(), count: fieldCount)
            var texts = Array(repeating: [UInt8](), count: fieldCount)
            var model = Model(limit: limit, fields: Array(repeating: ModelField(), count: fieldCount))
            var mostCounted = 0, mostHeld = 0
            for n in 0..<3_000 {
                let f = rng.next(below: fieldCount)
                let label = "seed \(seed), command \(n), field \(f), limit \(limit), budget \(budget)"
                let op = rng.next(below: 20)
                let text = String(decoding: texts[f], as: UTF8.self)
                switch op {
                case 0..<10:
                    let kind = [EditHistory.Kind.typing, .typing, .deleting, .other][rng.next(below: 4)]
                    var start = Self.boundary(texts[f], atMost: rng.next(below: texts[f].count + 1))
                    var end = Self.boundary(texts[f], atMost: start + rng.next(below: 4) * rng.next(below: 3))
                    if end < start { end = start }
                    var inserted = Self.text(&rng)
                    if kind == .deleting { inserted = "" }
                    if let run = model.fields[f].run, run.end <= texts[f].count, rng.next(below: 4) != 0 {
                        // Mostly where the open run goes on.
                        if kind == .typing { (start, end) = (run.end, run.end) }
                        if kind == .deleting { (start, end) = (Self.boundary(texts[f], atMost: max(0, run.end - 1 - rng.next(below: 3))), run.end) }
                    }
                    let removed = String(decoding: texts[f][start..<end], as: UTF8.self)
                    let r = Record(number: -1, kind: kind, startUTF8: start, removed: removed, inserted: inserted,
                                   anchor: rng.next(below: 40), head: rng.next(below: 40))
                    log.record(kind, startUTF8: start, removedUTF8: end - start, insertedUTF8: inserted.utf8.count, of: text,
                               secret: seed % 3 == 0, anchorBeforeUTF8: r.anchor, headBeforeUTF8: r.head, into: &heads[f])
                    model.record(f, r)
                    texts[f].replaceSubrange(start..<end, with: Array(inserted.utf8))
                case 10..<14:
                    let step = log.popUndo(&heads[f], text: text)
                    XCTAssertEqual(step, model.undo(f), label)
                    if let step { texts[f].replaceSubrange(step.startUTF8..<step.startUTF8 + step.replacedUTF8, with: Array(step.text.utf8)) }
                case 14..<17:
                    let step = log.popRedo(&heads[f], text: text)
                    XCTAssertEqual(step, model.redo(f), label)
                    if let step { texts[f].replaceSubrange(step.startUTF8..<step.startUTF8 + step.replacedUTF8, with: Array(step.text.utf8)) }
                case 17:
                    heads[f].close()
                    model.fields[f].run = nil
                default:
                    // Reset, removal or redefinition: the field's stacks start anew.
                    log.forget(&heads[f])
                    model.forget(f)
                }
                mostCounted = max(mostCounted, log.total)
                if log.total > budget { log.drop(toAtMost: budget - budget / 8) }
                if model.total > budget { model.drop(toAtMost: budget - budget / 8) }
                log.trimFront()
                if log.compactionDue { log.compact(fields: fieldCount) { visit in for i in heads.indices { visit(&heads[i]) } } }
                mostHeld = max(mostHeld, log.held + heads.count)
                XCTAssertEqual(log.total, model.total, label)
                XCTAssertLessThanOrEqual(heads[f].count, Int32(limit), label)
                if n % 32 == 0 { XCTAssertEqual(log.textHeld, model.textHeld, label) }
                XCTAssertEqual(log.recount, log.total, label)
                XCTAssertLessThanOrEqual(log.total, budget, label)
                XCTAssertEqual(log.undoGrowth(of: heads[f]), model.undoGrowth(f), label)
                XCTAssertEqual(log.redoGrowth(of: heads[f]), model.redoGrowth(f), label)
                // The text's buffer: room for what lives, half as much again and 4 bytes a record.
                let buffer = log.textBuffer
                XCTAssertLessThanOrEqual(buffer.span, buffer.capacity, label)
                XCTAssertLessThanOrEqual(buffer.capacity, max(4096, mostCounted * 3 / 2 + 4 * mostHeld), label)
                if log.total != model.total { return }
            }
        }
    }

    /// Records an `.other` step that replaces `removed` bytes at `start` of `text` with
    /// `inserted`, and makes it.
    private static func edit(_ log: inout UndoLog, _ h: inout EditHistory, _ text: inout String,
                             at start: Int, removing removed: Int = 0, inserting inserted: String, secret: Bool = false) {
        log.record(.other, startUTF8: start, removedUTF8: removed, insertedUTF8: inserted.utf8.count, of: text, secret: secret,
                   anchorBeforeUTF8: 0, headBeforeUTF8: 0, into: &h)
        var bytes = Array(text.utf8)
        bytes.replaceSubrange(start..<start + removed, with: Array(inserted.utf8))
        text = String(decoding: bytes, as: UTF8.self)
    }

    /// Undoes or redoes `step` on `text`.
    private static func apply(_ step: EditHistory.Step, to text: inout String) {
        var bytes = Array(text.utf8)
        bytes.replaceSubrange(step.startUTF8..<step.startUTF8 + step.replacedUTF8, with: Array(step.text.utf8))
        text = String(decoding: bytes, as: UTF8.self)
    }

    /// A copy of the log (an engine copied, as a test or a preview does) keeps its records
    /// however the original changes: the storage is shared only until one of them writes.
    func testACopyKeepsItsStepsWhateverTheOriginalDoes() {
        var log = UndoLog(limit: 3, compactionFloor: 0)
        var h = EditHistory()
        var text = ""
        for i in 0..<5 { Self.edit(&log, &h, &text, at: text.utf8.count, inserting: "t\(i)") }
        let (saved, savedHistory, savedText) = (log, h, text)
        if let step = log.popUndo(&h, text: text) { Self.apply(step, to: &text) }
        Self.edit(&log, &h, &text, at: 0, removing: 1, inserting: "x")
        log.drop(toAtMost: 0)
        log.trimFront()
        log.compact(fields: 1) { $0(&h) }
        XCTAssertEqual(log.total, 0)
        XCTAssertNil(log.popUndo(&h, text: text))
        var copy = saved, copyHistory = savedHistory, copyText = savedText
        XCTAssertEqual(copy.total, 3 * (2 + UndoLog.recordOverhead))
        var undone: [String] = []
        while let step = copy.popUndo(&copyHistory, text: copyText) {
            undone.append(String(copyText.utf8.dropFirst(step.startUTF8).prefix(step.replacedUTF8))!)
            Self.apply(step, to: &copyText)
        }
        XCTAssertEqual(undone, ["t4", "t3", "t2"])
        XCTAssertEqual(copyText, "t0t1")
        XCTAssertEqual(copy.popRedo(&copyHistory, text: copyText)?.text, "t2")
    }

    /// Steps past the limit are out of reach at once, whatever the log still holds.
    func testOnlyTheLastLimitStepsCanBeUndone() {
        for limit in [0, 1, 3, 100] {
            for count in [0, 1, limit, limit + 1, 2 * limit + 3] {
                var log = UndoLog(limit: limit)
                var h = EditHistory()
                var text = ""
                for i in 0..<count { Self.edit(&log, &h, &text, at: text.utf8.count, inserting: "\(i % 10)") }
                var undone: [Int] = []
                while let s = log.popUndo(&h, text: text) {
                    undone.append(s.startUTF8)
                    Self.apply(s, to: &text)
                }
                XCTAssertEqual(undone, Array((max(0, count - limit)..<count).reversed()), "limit \(limit), \(count) steps")
                var redone = 0
                while let s = log.popRedo(&h, text: text) {
                    redone += 1
                    Self.apply(s, to: &text)
                }
                XCTAssertEqual(redone, undone.count)
                XCTAssertEqual(text, String((0..<count).map { Character("\($0 % 10)") }))
                XCTAssertEqual(log.popUndo(&h, text: text)?.startUTF8, count > 0 && limit > 0 ? count - 1 : nil)
            }
        }
    }

    /// Undo takes a step's inserted text from the field and redo its removed text, the
    /// slot keeping the longer: a long text replaced by a short one and back, through
    /// copies, compactions and the text's buffer moving as it fills.
    func testUndoAndRedoTradeTextsWithTheField() {
        var log = UndoLog(limit: 100, compactionFloor: 0)
        var h = EditHistory()
        var text = ""
        var rng = SplitMix64(seed: 11)
        var versions = [text]
        for _ in 0..<200 {
            let new = String(repeating: ["ab", "é", "中x"][rng.next(below: 3)], count: rng.next(below: 300))
            Self.edit(&log, &h, &text, at: 0, removing: text.utf8.count, inserting: new, secret: true)
            versions.append(text)
        }
        for back in 1...100 {
            let step = log.popUndo(&h, text: text)!
            Self.apply(step, to: &text)
            XCTAssertEqual(text, versions[200 - back])
        }
        XCTAssertNil(log.popUndo(&h, text: text))
        for forward in 1...100 {
            let step = log.popRedo(&h, text: text)!
            Self.apply(step, to: &text)
            XCTAssertEqual(text, versions[100 + forward])
        }
        XCTAssertEqual(log.textHeld, (101...200).reduce(0) { $0 + versions[$1 - 1].utf8.count })
        XCTAssertEqual(log.recount, log.total)
    }

    /// A secure field's text is overwritten in the text's buffer when its step dies (past
    /// the limit, forgotten, dropped by the budget), and where a compaction of the buffer
    /// moved it from; an ordinary field's text is left there until the bytes are reused.
    func testASecureTextDiesWithItsStep() {
        for secret in [true, false] {
            var log = UndoLog(limit: 3, compactionFloor: 0)
            var heads = [EditHistory(), EditHistory()]
            var texts = ["", ""]
            for i in 0..<400 {
                let f = i == 1 ? 1 : 0
                let new = "pw-\(i)-S3kr1t" + String(repeating: "x", count: i % 50)
                Self.edit(&log, &heads[f], &texts[f], at: 0, removing: texts[f].utf8.count, inserting: new, secret: secret)
                if i % 5 == 0, let step = log.popUndo(&heads[f], text: texts[f]) { Self.apply(step, to: &texts[f]) }
                if i % 11 == 0, let step = log.popRedo(&heads[f], text: texts[f]) { Self.apply(step, to: &texts[f]) }
                if log.total > 3_000 { log.drop(toAtMost: 2_000) }
                log.trimFront()
                if log.compactionDue { log.compact(fields: 2) { visit in for i in heads.indices { visit(&heads[i]) } } }
            }
            log.forget(&heads[0])
            log.forget(&heads[1])
            let held = log.textBufferBytes
            let marker = Array("S3kr1t".utf8)
            let found = held.indices.dropLast(marker.count).contains { Array(held[$0..<$0 + marker.count]) == marker }
            XCTAssertEqual(found, !secret, secret ? "a dead secure text is overwritten" : "an ordinary one is not")
            XCTAssertGreaterThan(log.textBuffer.capacity, 4096 - 1, "the buffer was used")
        }
    }

    /// A step whose offsets do not fit in 32 bits is not kept: the field's history is
    /// forgotten, and the log counts nothing for it.
    func testAStepPastTwoGiBForgetsTheHistory() {
        var log = UndoLog(limit: 10)
        var h = EditHistory()
        var text = ""
        Self.edit(&log, &h, &text, at: 0, inserting: "abc")
        log.record(.other, startUTF8: 0, removedUTF8: 0, insertedUTF8: 1, of: text, secret: false,
                   anchorBeforeUTF8: Int(Int32.max) + 1, headBeforeUTF8: 0, into: &h)
        XCTAssertEqual(log.total, 0)
        XCTAssertNil(log.popUndo(&h, text: "xabc"))
    }

    /// Offsets up to `Int32.max` are kept exactly (a record stores them in 32 bits once
    /// `record` has checked they fit).
    func testAStepAtTheThirtyTwoBitLimitKeepsItsOffsets() {
        var log = UndoLog(limit: 10)
        var h = EditHistory()
        log.record(.other, startUTF8: 1, removedUTF8: 2, insertedUTF8: 1, of: "abcd", secret: false,
                   anchorBeforeUTF8: Int(Int32.max), headBeforeUTF8: Int(Int32.max) - 1, into: &h)
        XCTAssertEqual(log.total, 3 + UndoLog.recordOverhead)
        let step = log.popUndo(&h, text: "axd")
        XCTAssertEqual(step, EditHistory.Step(startUTF8: 1, replacedUTF8: 1, text: "bc",
                                              anchorBeforeUTF8: Int(Int32.max), headBeforeUTF8: Int(Int32.max) - 1))
    }
}
