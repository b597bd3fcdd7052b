@testable import FormdCore
import FormdJSON
import FormdProtocol
@testable import FormdServer
import FormdTestSupport
import XCTest

/// `HeldOutput.write` frees each record as it writes it and empties the list without a
/// second pass: a record holding only inline or constant strings is left as it lies, any
/// other is destroyed. Checked by the strings' own reference counts, and by the bytes.
final class HeldOutputFreeingTests: XCTestCase {
    /// Every keystroke kind, each with `long` in one of its strings or none.
    func events(_ long: String) -> [FormEvent] {
        let edit = TextEdit(start: 0, end: 1, text: "é", removed: "a")
        let range = TextRange(start: 1, end: 1)
        return [
            .textChanged(field: "f1", text: "ab", length: 2, edit: edit, selection: range),
            .textChanged(field: long, text: "ab", length: 2, edit: edit, selection: range),
            .textChanged(field: "f1", text: long, length: 40, edit: edit, selection: range),
            .textChanged(field: "f1", text: nil, length: 2, edit: TextEdit(start: 0, end: 0, text: long), selection: range),
            .textChanged(field: "f1", text: "ab", length: 2, edit: TextEdit(start: 0, end: 0, text: "", removed: long), selection: range),
            .selectionChanged(field: long, selection: range), .responderChanged(field: long, isFirstResponder: true),
            .responderChanged(field: "f2", isFirstResponder: false), .focusChanged(from: nil, to: "f2"),
            .focusChanged(from: long, to: nil), .focusChanged(from: "f1", to: long), .demandChanged(field: long, demand: .become, outcome: .pending),
            .returnPressed(field: long, action: .next), .deletePressed(field: "f2", textBefore: long), .deletePressed(field: long, textBefore: ""),
            .changeRejected(field: long, reason: .disabled), .fieldRemoved(field: long),
            .fieldChanged(field: "f1", changes: FieldChanges(visited: true)), .submitFailed(errors: []),
        ]
    }

    func testTheFastPathIsTakenHere() {
        XCTAssertTrue(StringWords.layoutHolds, "strings and arrays are laid out as the freeing expects on this platform")
        XCTAssertTrue("f1".isImmortal)
        XCTAssertFalse(String(repeating: "é", count: 20).isImmortal)
    }

    /// Holds `events` (of `form`) as a stretch of output, writes it to `out` and returns
    /// the bytes expected, each event written on its own; `check` looks at the emptied
    /// stretch before it goes.
    func write(_ events: [FormEvent], form: String, to out: inout OutputChannel, _ check: (inout HeldOutput) -> Void) -> [UInt8] {
        var held = HeldOutput(bytes: JSONWriter())
        held.records.reserveCapacity(100)
        var expected = JSONWriter()
        for (i, event) in events.enumerated() {
            let record = EventRecord(form: form, seq: i + 1, event: event)
            held.bytes.writeRaw("r\n")
            expected.writeRaw("r\n")
            held.marks.append(HeldOutput.Mark(offset: held.bytes.count, end: held.records.count + 1, textSync: .full, framing: .ndjson))
            held.records.append(record)
            EventEncoder.write(record, textSync: .full, newline: true, to: &expected)
        }
        let capacity = held.records.capacity
        held.write(to: &out, flushingAt: 1 << 30)
        XCTAssertEqual(held.records.count, 0)
        XCTAssertEqual(held.records.capacity, capacity, "the list keeps its room for the next stretch")
        check(&held)
        return expected.bytes
    }

    /// A fresh string, after the events `pick` makes with it were held, written and freed:
    /// every reference to it the records took is gone once this returns.
    func writtenAndFreed(form: String, _ pick: (String) -> [FormEvent]) -> String {
        let long = String(repeating: "x", count: 40) + "é"
        let null = open("/dev/null", O_WRONLY)
        XCTAssertGreaterThanOrEqual(null, 0)
        defer { close(null) }
        var out = OutputChannel(fd: null)
        let expected = write(pick(long), form: form, to: &out) { _ in }
        XCTAssertEqual(out.writer.bytes, expected, "the same bytes as each event written on its own")
        return long
    }

    func testWrittenRecordsAreFreedAndTheListEmptied() {
        let named = "a form named at run time, out of line".uppercased()
        let count = events("").count
        for form in [FormEngine.defaultForm, named] {
            // What a string held by no record counts here (the caller's own references).
            let unused = writtenAndFreed(form: form) { _ in [.fieldRemoved(field: "f1")] }
            let baseline = storageReferences(unused)
            for i in 0..<count {
                let long = writtenAndFreed(form: form) { [events($0)[i]] }
                let now = storageReferences(long)
                XCTAssertEqual(now, baseline, "event \(i): the records released the string")
            }
            let long = writtenAndFreed(form: form) { events($0) }
            let now = storageReferences(long)
            XCTAssertEqual(now, baseline)
            // The first record holding the string, the next none: freed in place all the same.
            let first = writtenAndFreed(form: form) { let all = events($0); return [all[1], all[0]] + all[2...] }
            let then = storageReferences(first)
            XCTAssertEqual(then, baseline)
        }
    }

    func testTheEmptiedListTakesRecordsAgain() {
        let null = open("/dev/null", O_WRONLY)
        defer { close(null) }
        var out = OutputChannel(fd: null)
        _ = write(events("f1"), form: FormEngine.defaultForm, to: &out) { held in
            held.records.append(EventRecord(form: "other", seq: 1, event: .fieldRemoved(field: "f3")))
            XCTAssertEqual(held.records.count, 1)
            XCTAssertEqual(held.records[0], EventRecord(form: "other", seq: 1, event: .fieldRemoved(field: "f3")))
        }
    }
}
