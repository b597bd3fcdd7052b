@testable import FormdCore
import FormdJSON
@testable import FormdProtocol
import XCTest

/// Responses with a compact result are written in one reservation sized without looking
/// at their words (`ResultEncoder.compactBound`): every word fits the room assumed, and
/// every such response, with ids of every kind, comes back exactly.
final class ResponseWriterTests: XCTestCase {
    func testEveryWordFitsTheRoomAssumed() {
        let words = RejectReason.allCases.map(\.rawValue) + ReturnOutcome.allCases.map(\.rawValue)
            + DemandOutcome.allCases.map(\.rawValue)
        for word in words { XCTAssertLessThanOrEqual(word.utf8.count, ResultEncoder.maxWordBytes, word) }
    }

    func testCompactResponsesComeBackExactly() throws {
        let hostile = String(repeating: "\"\\\u{01}é", count: 40)
        var results: [(CommandResult, JSONValue)] = [
            (.done, .object(JSONObject())),
            (.focus(firstResponder: nil, moved: false), ["firstResponder": .null, "moved": false]),
            (.focus(firstResponder: hostile, moved: true), ["firstResponder": .string(hostile), "moved": true]),
            (.selection(TextRange(start: Int.max, end: Int.min, backward: true)),
             ["selection": ["start": .number(JSONNumber(Int.max)), "end": .number(JSONNumber(Int.min)), "backward": true]]),
        ]
        for applied in [true, false] {
            results.append((.edit(applied: applied, reason: nil), ["applied": .bool(applied)]))
            for reason in RejectReason.allCases {
                results.append((.edit(applied: applied, reason: reason), ["applied": .bool(applied), "reason": .string(reason.rawValue)]))
            }
        }
        results += ReturnOutcome.allCases.map { (.returnPressed($0), ["action": .string($0.rawValue)]) }
        results += DemandOutcome.allCases.map { (.demand($0), ["outcome": .string($0.rawValue)]) }
        let ids: [(RequestID, JSONValue)] = [
            (.number(JSONNumber(7)), .number(JSONNumber(7))),
            (.number(JSONNumber(uncheckedLiteral: "123456789012345678901234567890")), .number(JSONNumber(uncheckedLiteral: "123456789012345678901234567890"))),
            (.string(hostile), .string(hostile)), (.string(""), .string("")), (.null, .null),
        ]
        for (id, idValue) in ids {
            for (result, expected) in results {
                // A writer with no room to spare: the reservation alone must cover the response.
                var w = JSONWriter(reservingCapacity: 1)
                MessageWriter.writeResponse(id: id, result, to: &w)
                let value = try w.withUnsafeBytes { try JSONParser.parse($0, maxDepth: 8) }
                XCTAssertEqual(value, ["jsonrpc": "2.0", "id": idValue, "result": expected], "\(result)")
            }
        }
    }
}
