import Foundation
import XCTest

/// A large `submit` answer is counted before the submit is carried out, and refused
/// (nothing carried out) where it would have to be held past a bound.
final class LargeSubmitTests: XCTestCase {
    /// A form file of `fields` fields `f0`, `f1`… each holding `bytes` bytes of text.
    static func formFile(fields: Int, bytes: Int) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("formd-submit-\(getpid())-\(fields)-\(bytes).json")
        let text = String(repeating: "x", count: bytes)
        let specs = (0..<fields).map { #"{"id":"f\#($0)","text":"\#(text)"}"# }.joined(separator: ",")
        try Data(#"{"fields":[\#(specs)]}"#.utf8).write(to: file)
        return file
    }

    /// In a batch, a `submit` whose answer would take the batch past `--max-line-output` is
    /// refused before it is carried out: no event, focus and `seq` as they were.
    func testASubmitInABatchPastMaxLineOutputIsRefusedAndChangesNothing() throws {
        let form = try Self.formFile(fields: 5, bytes: 200_000)
        defer { try? FileManager.default.removeItem(at: form) }
        let input = #"{"id":0,"method":"demandFocus","params":{"field":"f2","demand":"become"}}"# + "\n"
            + #"[{"id":1,"method":"submit"},{"id":2,"method":"validate"}]"# + "\n"
            + #"{"id":3,"method":"submit","params":{"includeSecrets":false}}"# + "\n"
        let out = try FormdProcess.run(["--form", form.path, "--max-line-output", "500000"], input: input)
        let lines = out.stdout.split(separator: "\n").map(String.init)
        let batchLine = try XCTUnwrap(lines.first { $0.hasPrefix("[") })
        let batch = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(batchLine.utf8)) as? [[String: Any]])
        let error = try XCTUnwrap(batch.first?["error"] as? [String: Any], "answered: \(batchLine.utf8.count) bytes")
        XCTAssertEqual(error["code"] as? Int, -32003)
        let message = error["message"] as? String ?? ""
        XCTAssertTrue(message.hasPrefix("limit maxLineOutput exceeded: this submit's answer is ")
                      && message.contains("the submit was counted and not carried out"), message)
        XCTAssertEqual((batch.last?["error"] as? [String: Any])?["code"] as? Int, -32003, "the rest of the batch is refused too")
        // Only the submit alone, after the batch, was carried out: one submitted event, and
        // the focus was still on f2 when it came.
        let batchAt = try XCTUnwrap(lines.firstIndex(of: batchLine))
        let events = lines.filter { $0.contains(#""method":"submitted""#) }
        XCTAssertEqual(events.count, 1)
        XCTAssertGreaterThan(try XCTUnwrap(lines.firstIndex(of: events[0])), batchAt)
        let resign = try XCTUnwrap(lines.first { $0.contains(#""method":"focusChanged""#) && $0.contains(#""to":null"#) })
        XCTAssertGreaterThan(try XCTUnwrap(lines.firstIndex(of: resign)), batchAt, "the refused submit moved the focus")
        let alone = try XCTUnwrap(lines.last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        XCTAssertEqual(((alone["result"] as? [String: Any])?["values"] as? [String: String])?.count, 5, "alone, it is answered")
    }

    /// Over `--listen`, a `submit` whose answer and `submitted` event would not fit
    /// `--max-client-buffer` together is refused before it is carried out, and the client
    /// stays connected.
    func testASubmitPastTheClientBufferIsRefusedAndTheClientStays() throws {
        let form = try Self.formFile(fields: 5, bytes: 200_000)
        defer { try? FileManager.default.removeItem(at: form) }
        let daemon = try ListenDaemon(args: ["--form", form.path, "--max-client-buffer", "500000"])
        let client = try SocketClient(daemon.socket, name: "c")
        XCTAssertNotNil(client.call("demandFocus", ["field": "f2", "demand": "become"])["result"])
        let error = client.call("submit")["error"] as? [String: Any]
        XCTAssertEqual(error?["code"] as? Int, -32003)
        let message = error?["message"] as? String ?? ""
        XCTAssertTrue(message.hasPrefix("limit maxClientBuffer exceeded: this submit's answer and submitted event are ")
                      && message.contains("the submit was counted and not carried out"), message)
        let focus = client.call("focusNext")["result"] as? [String: Any]
        XCTAssertEqual(focus?["firstResponder"] as? String, "f3", "still connected, and the focus was where it was")
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
    }
}
