@testable import FormdCore
import FormdJSON
@testable import FormdProtocol
import XCTest

/// Events are written in one reservation sized from their strings (`JSONCursor`): the
/// worst strings, every byte escaped to six, must fit and come back exactly.
final class EventEncoderTests: XCTestCase {
    static let hostile = [
        "", "a", String(repeating: "\u{01}", count: 300), "quote \" back \\ slash", "tab\tnl\ncr\r",
        "é 👍 \u{1F1EB}\u{1F1F7}", String(repeating: "\"\\\u{1F}", count: 97), "\u{7F}/\u{2028}",
    ]

    func encode(_ event: FormEvent, form: String, textSync: TextSync = .full) throws -> JSONObject {
        var w = JSONWriter(reservingCapacity: 1)
        EventEncoder.write(EventRecord(form: form, seq: Int.max, event: event), textSync: textSync, to: &w)
        let value = try w.withUnsafeBytes { try JSONParser.parse($0, maxDepth: 16) }
        guard case .object(let message) = value, case .object(let params)? = message["params"] else {
            XCTFail("not a notification: \(value)")
            return JSONObject()
        }
        XCTAssertEqual(params["form"], .string(form))
        XCTAssertEqual(params["seq"], .number(JSONNumber(Int.max)))
        return params
    }

    func testHostileStringsFitAndComeBackExactly() throws {
        for s in Self.hostile {
            // The default form's name is written as a constant, any other quoted.
            for form in [FormEngine.defaultForm, "defaults", s] {
                for sync in [TextSync.full, .incremental] {
                    let edit = TextEdit(start: Int.min, end: -1, text: s)
                    let changed = try encode(.textChanged(field: s, text: s, length: 3, edit: edit, selection: TextRange(start: 0, end: 9, backward: true)),
                                             form: form, textSync: sync)
                    XCTAssertEqual(changed["field"], .string(s))
                    XCTAssertEqual(changed["text"], sync == .full ? .string(s) : nil)
                    XCTAssertEqual(changed["display"], sync == .full ? .string(s) : nil)
                    XCTAssertEqual(changed["edit"], .object(JSONObject([JSONMember(key: "start", value: .number(JSONNumber(Int.min))),
                                                                        JSONMember(key: "end", value: .number(JSONNumber(-1))),
                                                                        JSONMember(key: "text", value: .string(s))])))
                    let masked = try encode(.textChanged(field: s, text: nil, length: 200, edit: edit, selection: TextRange(start: 0, end: 0)),
                                            form: form, textSync: sync)
                    XCTAssertEqual(masked["display"], sync == .full ? .string(String(repeating: "•", count: 200)) : nil)
                    XCTAssertNil(masked["text"])
                }
                XCTAssertEqual(try encode(.deletePressed(field: s, textBefore: s), form: form)["textBefore"], .string(s))
                XCTAssertEqual(try encode(.focusChanged(from: s, to: nil), form: form)["from"], .string(s))
                XCTAssertEqual(try encode(.focusChanged(from: nil, to: s), form: form)["from"], .null)
                XCTAssertEqual(try encode(.fieldRemoved(field: s), form: form)["field"], .string(s))
                XCTAssertEqual(try encode(.demandChanged(field: s, demand: nil, outcome: .refused), form: form)["demand"], .null)
                XCTAssertEqual(try encode(.selectionChanged(field: s, selection: TextRange(start: 1, end: 2)), form: form)["field"], .string(s))
                XCTAssertEqual(try encode(.responderChanged(field: s, isFirstResponder: false), form: form)["isFirstResponder"], .bool(false))
                XCTAssertEqual(try encode(.returnPressed(field: s, action: .ignored), form: form)["action"], .string("ignored"))
                XCTAssertEqual(try encode(.changeRejected(field: s, reason: .disabled), form: form)["reason"], .string("disabled"))
            }
        }
    }

    /// With `newline`, an event is the same bytes and a newline after them, whatever its
    /// kind: the NDJSON output of a burst writes it so, in the event's own reservation.
    func testNewlineIsTheEventAndANewline() {
        let events: [FormEvent] = [
            .textChanged(field: "f1", text: "hi", length: 2, edit: TextEdit(start: 0, end: 0, text: "hi"), selection: TextRange(start: 2, end: 2)),
            .textChanged(field: "s", text: nil, length: 4, edit: TextEdit(start: 1, end: 3, text: "••"), selection: TextRange(start: 0, end: 3, backward: true)),
            .selectionChanged(field: "f1", selection: TextRange(start: 0, end: 1)),
            .responderChanged(field: "f1", isFirstResponder: true), .responderChanged(field: "f1", isFirstResponder: false),
            .focusChanged(from: nil, to: "f2"), .demandChanged(field: "f2", demand: .become, outcome: .pending),
            .returnPressed(field: "f2", action: .next), .deletePressed(field: "f2", textBefore: "x\n"),
            .changeRejected(field: "f2", reason: .empty), .fieldRemoved(field: "f3"),
            .fieldChanged(field: "f1", changes: FieldChanges(visited: true)),
            .submitted(values: [FieldValue(field: "f1", text: "a")], withheld: ["pw"]), .submitFailed(errors: []),
        ]
        for event in events {
            for form in [FormEngine.defaultForm, "other"] {
                for sync in [TextSync.full, .incremental] {
                    let record = EventRecord(form: form, seq: 12_345_678_901, event: event)
                    var plain = JSONWriter(), line = JSONWriter()
                    EventEncoder.write(record, textSync: sync, to: &plain)
                    EventEncoder.write(record, textSync: sync, newline: true, to: &line)
                    XCTAssertEqual(line.bytes, plain.bytes + [UInt8(ascii: "\n")], "\(event)")
                    XCTAssertFalse(plain.bytes.contains(UInt8(ascii: "\n")))
                }
            }
        }
    }
}
