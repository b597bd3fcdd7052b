import FormdJSON
import FormdServer
import XCTest

/// The line handler without a process: framing rules that every transport shares.
final class SessionTests: XCTestCase {
    /// Feeds `lines` to a fresh session and returns every output line.
    private func run(_ lines: [String], limits: SessionLimits = SessionLimits()) -> [String] {
        var session = Session(limits: limits)
        var w = JSONWriter()
        for line in lines {
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBytes { session.handleLine(UnsafeRawBufferPointer($0), into: &w) }
        }
        return String(decoding: w.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func testEventsComeBeforeTheirResponse() {
        let out = run([#"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}]}}"#,
                       #"{"id":2,"method":"setText","params":{"field":"a","text":"hi"}}"#])
        XCTAssertEqual(out.count, 4)
        XCTAssertTrue(out[0].contains(#""method":"formDefined""#))
        XCTAssertEqual(out[1], #"{"jsonrpc":"2.0","id":1,"result":{}}"#)
        XCTAssertTrue(out[2].contains(#""method":"textChanged""#))
        XCTAssertEqual(out[3], #"{"jsonrpc":"2.0","id":2,"result":{"applied":true}}"#)
    }

    func testBatchAnswersInOneArrayAfterAllItsEvents() {
        let out = run([#"[{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}]}},{"method":"setText","params":{"field":"a","text":"x"}},{"id":"b","method":"validate"}]"#])
        XCTAssertEqual(out.count, 3)
        XCTAssertTrue(out[0].contains("formDefined"))
        XCTAssertTrue(out[1].contains("textChanged"))
        XCTAssertEqual(out[2], #"[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":"b","result":{"valid":true,"errors":[]}}]"#)
    }

    func testABatchOfNotificationsAnswersNothing() {
        XCTAssertEqual(run([#"[{"method":"validate"},{"method":"validate"}]"#]), [])
    }

    func testIdsAreEchoedExactly() {
        let out = run([#"{"id":1.50,"method":"validate"}"#, #"{"id":null,"method":"validate"}"#, #"{"id":"x\u00e9","method":"validate"}"#])
        XCTAssertEqual(out, [#"{"jsonrpc":"2.0","id":1.50,"result":{"valid":true,"errors":[]}}"#,
                             #"{"jsonrpc":"2.0","id":null,"result":{"valid":true,"errors":[]}}"#,
                             #"{"jsonrpc":"2.0","id":"xé","result":{"valid":true,"errors":[]}}"#])
    }

    func testFailedNotificationReportsItsLineAndMethod() {
        let out = run(["", #"{"method":"setText","params":{"field":"nope","text":"x"}}"#])
        XCTAssertEqual(out.count, 1)
        XCTAssertTrue(out[0].hasPrefix(#"{"jsonrpc":"2.0","method":"error","params":{"code":-32001,"#), out[0])
        XCTAssertTrue(out[0].hasSuffix(#","line":2,"method":"setText"}}"#), out[0])
    }

    func testLimitsAreReportedByName() {
        var limits = SessionLimits()
        limits.maxLineBytes = 20
        limits.maxDepth = 3
        let out = run([#"{"id":1,"method":"validate","params":{}}"#, "[[[[1]]]]"], limits: limits)
        XCTAssertEqual(out.count, 2)
        XCTAssertTrue(out[0].contains("-32003") && out[0].contains("maxLineBytes"), out[0])
        XCTAssertTrue(out[1].contains("-32003") && out[1].contains("maxDepth"), out[1])
    }

    func testShutdownStopsTheSession() {
        var session = Session()
        var w = JSONWriter()
        var line = Array(#"{"id":1,"method":"shutdown"}"#.utf8)
        line.withUnsafeMutableBytes { session.handleLine(UnsafeRawBufferPointer($0), into: &w) }
        XCTAssertTrue(session.isShutDown)
        XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n")
    }
}
