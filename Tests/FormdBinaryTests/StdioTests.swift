import Foundation
import XCTest

/// The daemon as a pipe: quick start, end of input, shutdown, secrets on every stream.
final class StdioTests: XCTestCase {
    func testQuickStartSessionShowsTheEventStream() throws {
        let session = try String(contentsOf: FormdProcess.packageRoot.appendingPathComponent("examples/login-session.jsonl"), encoding: .utf8)
        let out = try FormdProcess.run(["--form", "examples/login.json"], input: session)
        XCTAssertEqual(out.status, 0, out.stderr)
        let messages = FormdProcess.messages(out)
        let methods = messages.compactMap { $0["method"] as? String }
        XCTAssertTrue(methods.contains("focusChanged") && methods.contains("submitFailed") && methods.contains("submitted"), "\(methods)")
        XCTAssertTrue(messages.allSatisfy { $0["jsonrpc"] as? String == "2.0" })
        let ids = messages.compactMap { $0["id"] as? Int }
        XCTAssertEqual(ids, Array(1...10), "every request answered once, in order")
    }

    func testEndOfInputExitsZeroAndAnswersAnUnterminatedLastLine() throws {
        let out = try FormdProcess.run([], input: "{\"id\":1,\"method\":\"validate\"}")
        XCTAssertEqual(out.status, 0)
        XCTAssertEqual(out.stdoutLines, [#"{"jsonrpc":"2.0","id":1,"result":{"valid":true,"errors":[]}}"#])
    }

    func testShutdownAnswersThenExitsIgnoringTheRest() throws {
        let out = try FormdProcess.run([], input: "{\"id\":1,\"method\":\"shutdown\"}\n{\"id\":2,\"method\":\"validate\"}\n")
        XCTAssertEqual(out.status, 0)
        XCTAssertEqual(out.stdoutLines, [#"{"jsonrpc":"2.0","id":1,"result":{}}"#])
    }

    func testCRLFAndEmptyLinesAreTolerated() throws {
        let out = try FormdProcess.run([], input: "\r\n\n{\"id\":1,\"method\":\"validate\"}\r\n\n")
        XCTAssertEqual(out.stdoutLines, [#"{"jsonrpc":"2.0","id":1,"result":{"valid":true,"errors":[]}}"#])
    }

    func testErrorNotificationCountsEveryInputLine() throws {
        let out = try FormdProcess.run([], input: "\n{\"id\":1,\"method\":\"validate\"}\n\n{\"method\":\"nope\"}\n")
        let last = FormdProcess.messages(out).last
        XCTAssertEqual(last?["method"] as? String, "error")
        XCTAssertEqual((last?["params"] as? [String: Any])?["line"] as? Int, 4)
    }

    func testSecureTextAppearsOnlyWhenExplicitlyAsked() throws {
        let secret = "s3cr3t-Pa55"
        let lines = [
            #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"u"},{"id":"p","configuration":["password"],"minLength":20,"returnAction":"submit"}]}}"#,
            #"{"id":2,"method":"demandFocus","params":{"field":"p","demand":"become"}}"#,
            #"{"id":3,"method":"setText","params":{"field":"p","text":"\#(secret)"}}"#,
            #"{"id":4,"method":"delete"}"#,
            #"{"id":5,"method":"setText","params":{"field":"p","text":"\#(secret)"}}"#,
            #"{"id":6,"method":"pressReturn"}"#,
            #"{"id":7,"method":"configureField","params":{"field":"p","minLength":null}}"#,
            #"{"id":8,"method":"pressReturn","params":{"field":"p"}}"#,
            #"{"id":9,"method":"getState"}"#,
            #"{"id":10,"method":"submit"}"#,
            #"{"id":11,"method":"validate"}"#,
            #"{"id":12,"method":"setSecure","params":{"field":"u","secure":true}}"#,
            #"{"id":13,"method":"reset"}"#,
            #"{"id":14,"method":"setText","params":{"field":"p","text":"\#(secret)"}}"#,
            #"{"method":"setText","params":{"field":"p","text":"\#(secret)","bogus":1}}"#,
        ]
        let out = try FormdProcess.run([], input: lines.map { $0 + "\n" }.joined())
        XCTAssertEqual(out.status, 0)
        XCTAssertFalse(out.stdout.contains("s3cr3t"), "secret leaked on stdout")
        XCTAssertFalse(out.stderr.contains("s3cr3t"), "secret leaked on stderr")
        XCTAssertFalse(out.stdout.contains("s3cr3t-Pa5"), "even a prefix of the secret must not leak")

        let asked = try FormdProcess.run([], input: (lines + [#"{"id":20,"method":"getState","params":{"includeSecrets":true}}"#]).map { $0 + "\n" }.joined())
        XCTAssertEqual(FormdProcess.messages(asked).last.flatMap { ($0["result"] as? [String: Any])?["fields"] as? [[String: Any]] }?.last?["text"] as? String, secret)
    }
}
