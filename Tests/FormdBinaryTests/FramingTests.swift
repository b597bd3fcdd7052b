import Foundation
import XCTest

/// `Content-Length` framing (the LSP base protocol) against the real binary: chosen by a
/// connection's first bytes on stdio, on each `--listen` connection and through `attach`;
/// everything but the framing the same as NDJSON; every way a message can be bad.
final class FramingTests: XCTestCase {
    /// Runs formd on `input` and splits its stdout into message bodies, parsed.
    private func runFramed(_ args: [String] = [], _ input: Data, file: StaticString = #filePath, line: UInt = #line)
        throws -> (status: Int32, messages: [[String: Any]], stderr: String) {
        let output = try FormdProcess.run(args, inputData: input)
        guard let bodies = FramedMessages.split(Data(output.stdout.utf8)) else {
            XCTFail("stdout is not Content-Length messages: \(output.stdout.prefix(400))", file: file, line: line)
            return (output.status, [], output.stderr)
        }
        let messages = bodies.map { body -> [String: Any] in
            let object = try? JSONSerialization.jsonObject(with: body)
            if let batch = object as? [[String: Any]] { return ["batch": batch] }
            guard let dict = object as? [String: Any] else {
                XCTFail("a body is not a JSON-RPC message: \(String(decoding: body, as: UTF8.self))", file: file, line: line)
                return [:]
            }
            return dict
        }
        return (output.status, messages, output.stderr)
    }

    private func message(_ object: [String: Any], headers: [String] = []) -> Data {
        FramedMessages.frame(try! JSONSerialization.data(withJSONObject: object), extraHeaders: headers)
    }

    private static var login: [String: Any] { ["id": 2, "method": "defineForm", "params": ["fields": [
        ["id": "user", "required": true], ["id": "password", "secure": true]]]] }

    func testALoginFormOverContentLength() throws {
        var input = Data()
        // Header names in any case; Content-Type is accepted and ignored.
        input += FramedMessages.frame(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"positionEncoding":"utf-8"}}"#,
                                      extraHeaders: ["Content-Type: application/vscode-jsonrpc; charset=utf-8"])
        input += Data("content-length: \(try JSONSerialization.data(withJSONObject: Self.login).count)\r\n\r\n".utf8)
        input += try JSONSerialization.data(withJSONObject: Self.login)
        input += message(["id": 3, "method": "demandFocus", "params": ["field": "user", "demand": "become"]])
        // Multi-byte text: the length counts bytes, and a body may span lines.
        input += FramedMessages.frame("{\n  \"id\": 4,\n  \"method\": \"insertText\",\n  \"params\": {\"text\": \"héllo 👍🏽\"}\n}")
        input += message(["id": 5, "method": "setText", "params": ["field": "nobody", "text": "x"]])
        input += message(["method": "setText", "params": ["field": "nobody", "text": "x"]])
        input += FramedMessages.frame(#"[{"id":6,"method":"validate"},{"id":7,"method":"pressReturn"}]"#)
        input += message(["id": 8, "method": "shutdown"])
        let (status, messages, stderr) = try runFramed([], input)
        XCTAssertEqual(status, 0, stderr)
        XCTAssertEqual(stderr, "")

        let initialize = try XCTUnwrap(messages.first { $0["id"] as? Int == 1 })
        XCTAssertEqual(initialize.result["framing"] as? String, "contentLength")
        XCTAssertEqual(initialize.result["positionEncoding"] as? String, "utf-8")
        let text = try XCTUnwrap(messages.first { $0.method == "textChanged" })
        XCTAssertEqual(text.params["text"] as? String, "héllo 👍🏽")
        XCTAssertEqual((text.params["selection"] as? [String: Any])?["end"] as? Int, "héllo 👍🏽".utf8.count)
        // Events come before the response of the request that caused them.
        let textIndex = try XCTUnwrap(messages.firstIndex { $0.method == "textChanged" })
        let responseIndex = try XCTUnwrap(messages.firstIndex { $0["id"] as? Int == 4 })
        XCTAssertLessThan(textIndex, responseIndex)
        XCTAssertEqual(messages[responseIndex].result["applied"] as? Bool, true)
        let refused = try XCTUnwrap(messages.first { $0["id"] as? Int == 5 })
        XCTAssertEqual((refused["error"] as? [String: Any])?["code"] as? Int, -32001)
        let notice = try XCTUnwrap(messages.first { $0.method == "error" })
        XCTAssertEqual(notice.params["code"] as? Int, -32001)
        XCTAssertEqual(notice.params["line"] as? Int, 6, "lines count messages")
        let batch = try XCTUnwrap(messages.first { $0["batch"] != nil }?["batch"] as? [[String: Any]])
        XCTAssertEqual(batch.compactMap { $0["id"] as? Int }, [6, 7])
        XCTAssertEqual(messages.last?["id"] as? Int, 8)
    }

    func testABodyThatIsNotJSONIsAParseErrorAndTheConnectionGoesOn() throws {
        var input = FramedMessages.frame("hello\r\n\r\nContent-Length: 3")
        input += FramedMessages.frame("")
        input += message(["id": 1, "method": "getState"])
        let (status, messages, _) = try runFramed([], input)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(messages.count, 2, "\(messages)")
        XCTAssertEqual((messages[0]["error"] as? [String: Any])?["code"] as? Int, -32700)
        XCTAssertTrue(messages[0]["id"] is NSNull)
        XCTAssertEqual(messages[1].result["seq"] as? Int, 0)
    }

    /// A body over --max-line-bytes is refused with its id and dropped as it streams in:
    /// 64 MiB through a daemon limited to 1000 bytes leaves its memory small.
    func testAnOverLongBodyIsRefusedAndSkippedAsItArrives() throws {
        let process = Process()
        process.executableURL = FormdProcess.binary
        process.arguments = ["--max-line-bytes", "1000"]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        signal(SIGPIPE, SIG_IGN)
        let size = 64 << 20
        let head = #"{"id":"big","method":"setText","params":{"field":"a","text":""#
        stdin.fileHandleForWriting.write(Data("Content-Length: \(size)\r\n\r\n\(head)".utf8))
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        var sent = head.utf8.count
        while sent + chunk.count <= size {
            stdin.fileHandleForWriting.write(chunk)
            sent += chunk.count
        }
        stdin.fileHandleForWriting.write(Data(repeating: UInt8(ascii: "x"), count: size - sent))
        stdin.fileHandleForWriting.write(message(["id": 2, "method": "getState"]))
        var received = Data()
        let deadline = Date().addingTimeInterval(20)
        var bodies: [Data] = []
        while bodies.count < 2 && Date() < deadline {
            received += stdout.fileHandleForReading.availableData
            bodies = FramedMessages.split(received) ?? []
        }
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.map { Int($0.split(separator: " ")[1]) ?? 0 } ?? 0
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(bodies.count, 2)
        let refusal = try JSONSerialization.jsonObject(with: bodies[0]) as? [String: Any] ?? [:]
        XCTAssertEqual(refusal["id"] as? String, "big")
        XCTAssertEqual((refusal["error"] as? [String: Any])?["code"] as? Int, -32003)
        XCTAssertTrue(((refusal["error"] as? [String: Any])?["message"] as? String ?? "").contains("maxLineBytes"))
        let state = try JSONSerialization.jsonObject(with: bodies[1]) as? [String: Any] ?? [:]
        XCTAssertEqual(state.result["seq"] as? Int, 0)
        XCTAssertGreaterThan(peak, 0)
        XCTAssertLessThan(peak, 32 << 10, "peak RSS \(peak) KiB: the body was held")
    }

    /// A header block that cannot be read cannot be resynchronised: what came before is
    /// answered, the `error` notification and stderr say why, and stdio exits 1.
    func testAnUnreadableHeaderEndsTheConversation() throws {
        let cases: [(String, String)] = [
            ("Content-Type: application/json\r\n\r\n{}", "no Content-Length"),
            ("Content-Length: abc\r\n\r\n{}", "not a whole number"),
            ("Content-Length: -2\r\n\r\n{}", "not a whole number"),
            ("Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", "twice"),
            ("Content-Length: 2\r\nno colon here\r\n\r\n{}", "Name: value"),
            ("Content-Length: 2\r\nX-Padding: " + String(repeating: "p", count: 2000) + "\r\n\r\n{}", "longer than 1024"),
        ]
        for (bad, reason) in cases {
            var input = message(["id": 1, "method": "getState"])
            input += Data(bad.utf8)
            input += message(["id": 2, "method": "getState"])
            let (status, messages, stderr) = try runFramed([], input)
            XCTAssertEqual(status, 1, reason)
            XCTAssertEqual(messages.count, 2, "\(reason): \(messages)")
            XCTAssertEqual(messages.first?["id"] as? Int, 1)
            let notice = messages.last ?? [:]
            XCTAssertEqual(notice.method, "error")
            XCTAssertEqual(notice.params["code"] as? Int, -32700)
            XCTAssertEqual(notice.params["line"] as? Int, 2)
            XCTAssertTrue((notice.params["message"] as? String ?? "").contains(reason), "\(notice)")
            XCTAssertTrue(stderr.contains("unreadable header") && stderr.contains(reason), stderr)
        }
    }

    func testAnUnfinishedMessageAtEndOfInputIsDropped() throws {
        for tail in ["Content-Length: 40\r\n\r\n{\"id\":2,\"method\":\"getSt", "Content-Len", "Content-Length: 4\r\n"] {
            let (status, messages, stderr) = try runFramed([], message(["id": 1, "method": "getState"]) + Data(tail.utf8))
            XCTAssertEqual(status, 0, stderr)
            XCTAssertEqual(messages.map { $0["id"] as? Int }, [1])
        }
    }

    /// Only a header starts Content-Length framing: other first bytes, even ones that
    /// begin like a header name, are NDJSON as before.
    func testOtherFirstBytesAreNDJSON() throws {
        let output = try FormdProcess.run([], input: "Content\n{\"id\":1,\"method\":\"initialize\"}\n")
        let messages = FormdProcess.messages(output)
        XCTAssertEqual(messages.count, 2)
        XCTAssertEqual((messages[0]["error"] as? [String: Any])?["code"] as? Int, -32700)
        XCTAssertEqual(messages[1].result["framing"] as? String, "ndjson")
    }

    /// Each `--listen` connection keeps its own framing: a Content-Length client (direct and
    /// through `attach`) and an NDJSON client on one daemon see the same events.
    func testListenClientsEachKeepTheirFraming() throws {
        let daemon = try ListenDaemon()
        let framed = try SocketClient(daemon.socket, name: "framed")
        framed.contentLength = true
        let bridged = try AttachClient(daemon.socket, name: "bridged")
        bridged.contentLength = true
        let lines = try SocketClient(daemon.socket, name: "lines")
        XCTAssertEqual(framed.call("initialize").result["framing"] as? String, "contentLength")
        XCTAssertEqual(bridged.call("initialize").result["framing"] as? String, "contentLength")
        XCTAssertEqual(lines.call("initialize").result["framing"] as? String, "ndjson")
        // Each attaches to the default form before it is defined.
        for client in [framed, bridged, lines] { XCTAssertEqual(client.call("getState").result["seq"] as? Int, 0) }
        XCTAssertNotNil(framed.call("defineForm", Self.login["params"] as! [String: Any])["result"])
        XCTAssertNotNil(bridged.call("demandFocus", ["field": "user", "demand": "become"])["result"])
        XCTAssertNotNil(framed.call("insertText", ["text": "ünïcode ✓"])["result"])
        let last = try XCTUnwrap(framed.call("getState").result["seq"] as? Int)
        lines.readEvents(throughSeq: last)
        bridged.readEvents(throughSeq: last)
        let names = { (c: LineClient) in c.events.map { "\($0.method ?? "")#\($0.seq ?? -1)" } }
        XCTAssertEqual(names(lines), names(framed))
        XCTAssertEqual(names(bridged), names(framed))
        XCTAssertEqual(lines.events.last { $0.method == "textChanged" }?.params["text"] as? String, "ünïcode ✓")

        // A connection whose header cannot be read is closed, with the error notification;
        // the others go on, and the daemon says why on stderr.
        framed.writeBytes(Data("Content-Length: many\r\n\r\n{}".utf8))
        let rest = framed.readToEnd()
        XCTAssertTrue(framed.atEnd)
        XCTAssertEqual(rest.last?.method, "error")
        XCTAssertEqual(rest.last?.params["code"] as? Int, -32700)
        XCTAssertEqual(lines.call("getState").result["seq"] as? Int, last)
        // The bridge's input ends after a whole message: nothing is added to it.
        let id = bridged.sendRequest("getState")
        bridged.closeInput()
        XCTAssertEqual(bridged.response(to: id).result["seq"] as? Int, last)
        XCTAssertEqual(bridged.readToEnd().count, 0)
        XCTAssertEqual(bridged.waitForExit(), 0)
        let (status, stderr) = daemon.stopAndCollect()
        XCTAssertEqual(status, 0)
        XCTAssertTrue(stderr.contains("unreadable header") && stderr.contains("not a whole number"), stderr)
    }

    /// A header that arrives a byte at a time is read as well as a whole one.
    func testAHeaderSplitAcrossReads() throws {
        let daemon = try ListenDaemon()
        let client = try SocketClient(daemon.socket, name: "slow")
        client.contentLength = true
        for byte in message(["id": 1, "method": "getState"]) {
            client.writeBytes(Data([byte]))
            usleep(500)
        }
        XCTAssertEqual(client.response(to: 1).result["seq"] as? Int, 0)
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
    }

    /// A Content-Length client that stops reading is disconnected as an NDJSON one is: the
    /// message it was in the middle of, then the final `error` notification, all framed.
    func testAFramedClientThatStopsReadingGetsWholeMessagesThenTheFinalError() throws {
        let daemon = try ListenDaemon(args: ["--max-client-buffer", "65536"])
        let stuck = try SocketClient(daemon.socket, name: "stuck")
        stuck.contentLength = true
        let typist = try SocketClient(daemon.socket, name: "typist")
        XCTAssertNotNil(typist.call("defineForm", ["fields": [["id": "a"]]])["result"])
        _ = stuck.sendRequest("getState")
        let text = String(repeating: "x", count: 10_000)
        for i in 0..<60 { XCTAssertNotNil(typist.call("setText", ["field": "a", "text": text + "\(i)"])["result"]) }
        let messages = stuck.readToEnd()
        XCTAssertTrue(stuck.atEnd)
        XCTAssertEqual(messages.last?.method, "error")
        XCTAssertEqual(messages.last?.params["code"] as? Int, -32003)
        XCTAssertGreaterThan(messages.count, 2)
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
    }
}

extension FramingTests {
    /// A burst large enough for the burst thread (`BurstIO`, with events held and written there)
    /// answers in Content-Length framing exactly what it answers in lines.
    func testABurstAnswersTheSameInBothFramings() throws {
        var requests = [#"{"id":0,"method":"defineForm","params":{"fields":[{"id":"a"},{"id":"b","secure":true}]}}"#,
                        #"{"id":1,"method":"demandFocus","params":{"field":"a","demand":"become"}}"#]
        for i in 0..<8_000 {
            switch i % 5 {
            case 0: requests.append(#"{"id":\#(i + 2),"method":"insertText","params":{"text":"é"}}"#)
            case 1: requests.append(#"{"method":"insertText","params":{"text":"x"}}"#)
            case 2: requests.append(#"{"id":\#(i + 2),"method":"delete"}"#)
            case 3: requests.append(#"{"id":\#(i + 2),"method":"setText","params":{"field":"b","text":"s\#(i)"}}"#)
            default: requests.append(#"[{"id":"q\#(i)","method":"pressReturn"},{"id":\#(i + 2),"method":"focusPrevious"}]"#)
            }
        }
        let lines = try FormdProcess.run([], input: requests.map { $0 + "\n" }.joined())
        XCTAssertEqual(lines.status, 0)
        let framed = try FormdProcess.run([], inputData: requests.reduce(into: Data()) { $0 += FramedMessages.frame($1) })
        XCTAssertEqual(framed.status, 0)
        let bodies = try XCTUnwrap(FramedMessages.split(Data(framed.stdout.utf8)))
        XCTAssertGreaterThan(bodies.count, 16_000)
        XCTAssertEqual(bodies.map { String(decoding: $0, as: UTF8.self) }, lines.stdoutLines)
    }
}
