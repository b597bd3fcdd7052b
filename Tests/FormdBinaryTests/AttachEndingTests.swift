import Foundation
import XCTest

/// How `formd attach` ends when the daemon closes the connection first: 0 after a shutdown
/// (its own `shutdown` answered, or another client's, or a signal), 1 and a message on stderr
/// when the daemon is lost (killed) or ends the connection on purpose (a refusal).
final class AttachEndingTests: XCTestCase {
    /// A client whose input stays open, so only the daemon can end the conversation.
    private func attach(_ daemon: ListenDaemon) throws -> AttachClient {
        try AttachClient(daemon.socket, name: "attach")
    }

    private func exitAndStderr(_ client: AttachClient) -> (Int32?, String) {
        let status = client.waitForExit()
        return (status, status == nil ? "" : client.stderr)
    }

    /// Kills `daemon` and expects `client` to report it lost: exit 1 and the one message.
    private func assertLostAfterKill(_ daemon: ListenDaemon, _ client: AttachClient, _ label: String,
                                     file: StaticString = #filePath, line: UInt = #line) {
        kill(daemon.process.processIdentifier, SIGKILL)
        let (status, stderr) = exitAndStderr(client)
        XCTAssertEqual(status, 1, label, file: file, line: line)
        XCTAssertEqual(stderr, "formd: lost the daemon at \(daemon.socket): it closed the connection without a shutdown (killed, or crashed?)\n", label, file: file, line: line)
    }

    func testAKilledDaemonIsALostConnection() throws {
        for framing in ["lines", "Content-Length"] {
            let daemon = try ListenDaemon()
            let client = try attach(daemon)
            let request = #"{"jsonrpc":"2.0","id":1,"method":"getState"}"#
            if framing == "lines" {
                XCTAssertNotNil(client.call("getState")["result"])
            } else {
                client.writeBytes(Data("Content-Length: \(request.utf8.count)\r\n\r\n\(request)".utf8))
            }
            usleep(100_000)
            assertLostAfterKill(daemon, client, framing)
        }
    }

    /// A request that merely mentions "shutdown" is not one: a kill after it is still a loss.
    func testTheWordShutdownInATextIsNoShutdown() throws {
        let daemon = try ListenDaemon(args: ["--form", "examples/login.json"])
        let client = try attach(daemon)
        XCTAssertEqual(client.call("setText", ["field": "email", "text": "shutdown"]).result["applied"] as? Bool, true)
        kill(daemon.process.processIdentifier, SIGKILL)
        let (status, stderr) = exitAndStderr(client)
        XCTAssertEqual(status, 1)
        XCTAssertTrue(stderr.contains("lost the daemon"), stderr)
    }

    /// The reviewer's case: a text naming "shutdown" (plainly, or as an escaped
    /// `"method":"shutdown"`), then another request answered `{}` (reset), then a kill: the
    /// answer `{}` is not to a shutdown, so the daemon was lost.
    func testAnEmptyAnswerAfterATextNamingShutdownIsNoShutdown() throws {
        for text in ["shutdown", #"x","method":"shutdown"#] {
            let daemon = try ListenDaemon(args: ["--form", "examples/login.json"])
            let client = try attach(daemon)
            XCTAssertEqual(client.call("setText", ["field": "email", "text": text]).result["applied"] as? Bool, true, text)
            XCTAssertEqual((client.call("reset")["result"] as? [String: Any])?.count, 0, text)
            assertLostAfterKill(daemon, client, text)
        }
    }

    func testItsOwnShutdownEndsInOrder() throws {
        let batch = #"[{"jsonrpc":"2.0","id":1,"method":"getState"},{"jsonrpc":"2.0","id":2,"method":"shutdown"}]"#
        let framed = #"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#
        for (name, bytes) in [("a line", #"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"# + "\n"),
                              ("in a batch", batch + "\n"),
                              ("a notification (not answered)", #"{"jsonrpc":"2.0","method":"shutdown"}"# + "\n"),
                              ("whitespace, the id last", #"{ "jsonrpc" : "2.0" , "method"\#t:  "shutdown" , "id" : "s" }"# + "\n"),
                              ("after a text naming it", #"{"jsonrpc":"2.0","id":1,"method":"getState","params":{"x":"\"method\":\"shutdown\""}}"#
                                + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"# + "\n"),
                              ("Content-Length, pretty", "Content-Length: 57\r\n\r\n{\n  \"id\": 7,\n  \"method\": \"shutdown\",\n  \"jsonrpc\": \"2.0\"\n}"),
                              ("Content-Length", "Content-Length: \(framed.utf8.count)\r\n\r\n" + framed)] {
            let daemon = try ListenDaemon()
            let client = try attach(daemon)
            client.writeBytes(Data(bytes.utf8))
            let (status, stderr) = exitAndStderr(client)
            XCTAssertEqual(status, 0, name)
            XCTAssertEqual(stderr, "", name)
            XCTAssertEqual(daemon.waitForExit().status, 0, name)
        }
    }

    /// The method's name split between two reads of the bridge.
    func testAShutdownSplitBetweenReadsIsSeen() throws {
        let daemon = try ListenDaemon()
        let client = try attach(daemon)
        client.writeBytes(Data(#"{"jsonrpc":"2.0","id":1,"method":"shut"#.utf8))
        usleep(200_000)
        client.writeBytes(Data(#"down"}"#.utf8 + [10]))
        let (status, stderr) = exitAndStderr(client)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(stderr, "")
    }

    /// A request split across reads before its method, and its id after it: the object is
    /// read on to its end for the id.
    func testAShutdownRequestSplitAroundItsMethodIsSeen() throws {
        for framing in ["lines", "Content-Length"] {
            let daemon = try ListenDaemon()
            let client = try attach(daemon)
            let parts = [#"{"jsonrpc":"2.0","#, #""method" :"#, #" "shutdown","params":{"form":"}]\\\"{"}"#, #","id":3}"#]
            if framing == "Content-Length" {
                client.writeBytes(Data("Content-Length: \(parts.joined().utf8.count)\r\n\r\n".utf8))
            }
            for part in parts {
                client.writeBytes(Data(part.utf8))
                usleep(150_000)
            }
            if framing == "lines" { client.writeBytes(Data([10])) }
            let (status, stderr) = exitAndStderr(client)
            XCTAssertEqual(status, 0, framing)
            XCTAssertEqual(stderr, "", framing)
        }
    }

    func testAnotherClientsShutdownOrASignalEndsInOrder() throws {
        for how in ["shutdown", "SIGTERM"] {
            let daemon = try ListenDaemon()
            let client = try attach(daemon)
            XCTAssertNotNil(client.call("getState")["result"])
            if how == "shutdown" {
                let other = try SocketClient(daemon.socket, name: "other")
                XCTAssertNotNil(other.call("shutdown")["result"])
            } else {
                kill(daemon.process.processIdentifier, SIGTERM)
            }
            let (status, stderr) = exitAndStderr(client)
            XCTAssertEqual(status, 0, how)
            XCTAssertEqual(stderr, "", how)
        }
    }

    func testARefusedConnectionExitsOneSayingWhy() throws {
        let daemon = try ListenDaemon(args: ["--max-clients", "1"])
        usleep(200_000)  // until the daemon has seen the end of the connection that probed it
        let first = try SocketClient(daemon.socket, name: "first")
        XCTAssertNotNil(first.call("getState")["result"])
        let refused = try attach(daemon)
        let (status, stderr) = exitAndStderr(refused)
        XCTAssertEqual(status, 1)
        XCTAssertTrue(stderr.hasPrefix("formd: the daemon at \(daemon.socket) ended the connection: -32003 limit maxClients exceeded"), stderr)
    }
}
