import Foundation
import XCTest

/// A slow or stuck client never blocks the others; a client that goes away mid-line
/// changes nothing.
final class ListenBackpressureTests: XCTestCase {
    func testAClientThatStopsReadingIsDisconnectedWhileTheOthersKeepTheirLatency() throws {
        let limit = 65536
        let daemon = try ListenDaemon(args: ["--max-client-buffer", "\(limit)"])
        let stuck = try SocketClient(daemon.socket, name: "stuck")
        let typist = try SocketClient(daemon.socket, name: "typist")
        let reader = try AttachClient(daemon.socket, name: "reader")
        XCTAssertNotNil(reader.call("getState")["result"])
        XCTAssertNotNil(typist.call("defineForm", ["fields": [["id": "a"]]])["result"])
        // The stuck client attaches, then never reads again.
        _ = stuck.sendRequest("getState")

        // Each setText sends the stuck client ~20 KB: its socket buffer fills, then formd's.
        let text = String(repeating: "x", count: 10_000)
        var latencies: [TimeInterval] = []
        for i in 0..<60 {
            let start = Date()
            XCTAssertNotNil(typist.call("setText", ["field": "a", "text": text + "\(i)"])["result"])
            latencies.append(Date().timeIntervalSince(start))
            // The other reader keeps up, as a live front end would.
            reader.readEvents(throughSeq: typist.events.last?.seq ?? 0)
        }
        let sorted = latencies.sorted()
        XCTAssertLessThan(sorted[sorted.count / 2], 0.05, "median latency \(sorted[sorted.count / 2])s")
        XCTAssertLessThan(sorted.last!, 0.5, "worst latency \(sorted.last!)s")

        // The other reader got everything, in order.
        let last = try XCTUnwrap(typist.call("getState").result["seq"] as? Int)
        reader.readEvents(throughSeq: last)
        XCTAssertEqual(reader.events.compactMap(\.seq), Array(1...last))

        // The stuck client, once it reads again: what fitted, then the final error (whole
        // lines only), then the end.
        let messages = stuck.readToEnd()
        XCTAssertTrue(stuck.atEnd, "the stuck client was not disconnected")
        let final = try XCTUnwrap(messages.last)
        XCTAssertEqual(final.method, "error")
        XCTAssertEqual(final.params["code"] as? Int, -32003)
        let message = final.params["message"] as? String ?? ""
        XCTAssertTrue(message.contains("maxClientBuffer") && message.contains("\(limit)") && message.contains("getState"), message)
        XCTAssertLessThan(messages.count, last, "the stuck client cannot have received everything")

        // It reconnects and resyncs.
        let again = try SocketClient(daemon.socket, name: "again")
        XCTAssertEqual(again.call("getState").result["seq"] as? Int, last)
        // Everyone else is still connected.
        XCTAssertNotNil(reader.call("validate")["result"])
        reader.closeInput()
        XCTAssertEqual(reader.waitForExit(), 0)
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
    }

    func testAClientThatSendsFasterThanItReadsIsSlowedDownNotDropped() throws {
        let daemon = try ListenDaemon(args: ["--max-client-buffer", "65536"])
        let client = try SocketClient(daemon.socket, name: "pipeline")
        XCTAssertNotNil(client.call("defineForm", ["fields": [["id": "a", "text": String(repeating: "y", count: 2000)]]])["result"])
        // 100 getStates (~230 KB of answers, well over the limit) in one write, before
        // reading any answer: formd stops reading while the answers wait, as a pipe would.
        // (A client that keeps writing without ever reading blocks, as on a pipe.)
        let lines = (1...100).map { #"{"id":\#($0),"method":"getState"}"# + "\n" }.joined()
        client.writeBytes(Data(lines.utf8))
        for id in 1...100 { XCTAssertEqual(client.response(to: id).result["seq"] as? Int, 1) }
        XCTAssertFalse(client.atEnd)
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
    }

    func testAClientThatDisconnectsMidLineOrMidRequestChangesNothing() throws {
        let daemon = try ListenDaemon()
        let owner = try SocketClient(daemon.socket, name: "owner")
        XCTAssertNotNil(owner.call("defineForm", ["fields": [["id": "a"]]])["result"])
        let before = owner.call("getState").result as NSDictionary

        // A whole request without its newline, and a batch cut in the middle.
        for partial in [#"{"id":1,"method":"setText","params":{"field":"a","text":"lost"}}"#,
                        #"[{"id":1,"method":"setText","params":{"field":"a","text":"lost"}},{"id":2,"meth"#] {
            let gone = try SocketClient(daemon.socket, name: "gone")
            gone.writeBytes(Data(partial.utf8))
            gone.close()
        }
        usleep(100_000)
        XCTAssertEqual(owner.call("getState").result as NSDictionary, before, "a cut line changed the state")

        // A complete line before the cut is carried out; the cut one is not.
        let half = try SocketClient(daemon.socket, name: "half")
        half.writeBytes(Data((#"{"method":"setText","params":{"field":"a","text":"kept"}}"# + "\n" + #"{"method":"setText","params":{"field":"a","text":"lo"#).utf8))
        half.close()
        usleep(100_000)
        let state = owner.call("getState").result
        XCTAssertEqual(state["seq"] as? Int, 2)
        XCTAssertEqual((state["fields"] as? [[String: Any]])?.first?["text"] as? String, "kept")
        XCTAssertEqual(owner.events.compactMap(\.method), ["formDefined", "textChanged"])

        // Through attach, the end of stdin is the end of input as for stdio: an
        // unterminated last line is still answered, and the bridge exits 0.
        let attach = try AttachClient(daemon.socket, name: "attach")
        attach.writeBytes(Data(#"{"id":7,"method":"validate"}"#.utf8))
        attach.closeInput()
        XCTAssertEqual(attach.readToEnd().first?["id"] as? Int, 7)
        XCTAssertEqual(attach.waitForExit(), 0)
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
    }
}
