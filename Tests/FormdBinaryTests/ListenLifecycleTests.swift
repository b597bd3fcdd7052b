import Foundation
import XCTest

/// Shutting the daemon down (a client's `shutdown`, SIGTERM) and `--state` with `--listen`.
final class ListenLifecycleTests: XCTestCase {
    func testShutdownFromAnyClientTellsTheOthersFirst() throws {
        let daemon = try ListenDaemon()
        let a = try SocketClient(daemon.socket, name: "a")
        let b = try AttachClient(daemon.socket, name: "b")
        let c = try SocketClient(daemon.socket, name: "c")
        // b quiet: the shutdown notification reaches it all the same.
        XCTAssertNotNil(b.call("unsubscribe")["result"])
        XCTAssertEqual(c.call("shutdown").result as NSDictionary, [:] as NSDictionary)
        for client in [a, b] as [LineClient] {
            let messages = client.readToEnd()
            XCTAssertEqual(messages.map { $0 as NSDictionary }, [["jsonrpc": "2.0", "method": "shutdown", "params": ["reason": "request"]] as NSDictionary], client.name)
            XCTAssertTrue(client.atEnd, client.name)
        }
        XCTAssertEqual(c.readToEnd().count, 0)
        XCTAssertTrue(c.atEnd)
        XCTAssertEqual(b.waitForExit(), 0, "attach exits when the daemon closes")
        let result = daemon.waitForExit()
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: daemon.socket))
    }

    func testSIGTERMTellsEveryClient() throws {
        let daemon = try ListenDaemon()
        let a = try SocketClient(daemon.socket, name: "a")
        let b = try AttachClient(daemon.socket, name: "b")
        XCTAssertNotNil(b.call("getState")["result"])
        XCTAssertNotNil(a.call("getState")["result"])
        kill(daemon.process.processIdentifier, SIGTERM)
        for client in [a, b] as [LineClient] {
            XCTAssertEqual(client.readToEnd().map { $0 as NSDictionary },
                           [["jsonrpc": "2.0", "method": "shutdown", "params": ["reason": "signal"]] as NSDictionary], client.name)
        }
        XCTAssertEqual(b.waitForExit(), 0)
        XCTAssertEqual(daemon.waitForExit().status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: daemon.socket))
    }

    func testStateKeepsWhatEveryClientDid() throws {
        let dir = ListenDaemon.makeDirectory()
        let state = dir + "/state"
        do {
            let daemon = try ListenDaemon(args: ["--state", state], dir: dir)
            daemon.removesDirectory = false
            let a = try SocketClient(daemon.socket, name: "a")
            let b = try AttachClient(daemon.socket, name: "b")
            XCTAssertNotNil(a.call("defineForm", ["fields": [["id": "x"], ["id": "y"]]])["result"])
            XCTAssertNotNil(b.call("setText", ["field": "x", "text": "from b"])["result"])
            XCTAssertNotNil(a.call("setText", ["field": "y", "text": "from a"])["result"])
            // Killed: only the journal has it.
            kill(daemon.process.processIdentifier, SIGKILL)
            daemon.process.waitUntilExit()
            b.closeInput()
            XCTAssertNotNil(b.waitForExit())
        }
        let restarted = try ListenDaemon(args: ["--state", state], dir: dir)
        let c = try SocketClient(restarted.socket, name: "c")
        let fields = c.call("getState").result["fields"] as? [[String: Any]] ?? []
        XCTAssertEqual(fields.map { $0["text"] as? String }, ["from b", "from a"])
        XCTAssertEqual(c.call("shutdown").result as NSDictionary, [:] as NSDictionary)
        XCTAssertEqual(restarted.waitForExit().status, 0)
    }
}
