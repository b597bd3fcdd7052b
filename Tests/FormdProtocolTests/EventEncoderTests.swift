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
}
