import Foundation
import XCTest

/// A large `getState` answer is never built whole: streamed on stdio, counted and refused
/// where it would have to be held past a bound (a batch, a socket client's buffer).
final class LargeAnswerTests: XCTestCase {
    /// A form file of `fields` bare fields (65,000: a `getState` answer of 43 MB).
    static func formFile(fields: Int) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("formd-large-\(getpid())-\(fields).json")
        let specs = (0..<fields).map { #"{"id":"f\#($0)"}"# }.joined(separator: ",")
        try Data(#"{"fields":[\#(specs)]}"#.utf8).write(to: file)
        return file
    }

    /// Reads stdout up to and including the next `\n` (a line of many megabytes).
    static func readLine(_ formd: SpawnedFormd) -> [UInt8] {
        var line: [UInt8] = []
        for chunk in StdioBackpressureTests.chunks(of: formd.stdoutFD, timeout: 60) {
            line += chunk
            if chunk.last == 0x0A { break }
        }
        return line
    }

    /// What formd, serving a form of `fields` bare fields, answers to `request`, and how much
    /// its peak RSS grew (KiB) while it did.
    static func answer(to request: String, fields: Int) throws -> (line: [UInt8], growth: Int) {
        let form = try formFile(fields: fields)
        defer { try? FileManager.default.removeItem(at: form) }
        let formd = try SpawnedFormd(["--form", form.path])
        XCTAssertTrue(formd.send(#"{"id":0,"method":"validate"}"# + "\n"))
        XCTAssertFalse(readLine(formd).isEmpty)
        let before = try XCTUnwrap(formd.peakRSSKiB)
        XCTAssertTrue(formd.send(request + "\n"))
        let line = readLine(formd)
        let growth = try XCTUnwrap(formd.peakRSSKiB) - before
        formd.closeStdin()
        XCTAssertEqual(formd.waitForExit(), 0)
        return (line, growth)
    }

    func testAGetStateOfSixtyFiveThousandFieldsIsStreamed() throws {
        let (line, growth) = try Self.answer(to: #"{"id":1,"method":"getState"}"#, fields: 65_000)
        XCTAssertGreaterThan(line.count, 40_000_000)
        // Built whole, the answer alone took more than its 43 MB (69 MB more in a release
        // build before); streamed, 5 MB.
        XCTAssertLessThan(growth, 24 << 10, "peak RSS grew \(growth) KiB for a \(line.count)-byte answer")
        let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        XCTAssertEqual(answer["id"] as? Int, 1)
        let fields = try XCTUnwrap((answer["result"] as? [String: Any])?["fields"] as? [[String: Any]])
        XCTAssertEqual(fields.count, 65_000)
        XCTAssertEqual(fields.last?["id"] as? String, "f64999")
    }

    /// SIGTERM while a streamed answer waits for a reader that does not read: formd still
    /// stops at once.
    func testSIGTERMEndsAStreamedAnswerThatNobodyReads() throws {
        let form = try Self.formFile(fields: 5_000)
        defer { try? FileManager.default.removeItem(at: form) }
        let formd = try SpawnedFormd(["--form", form.path])
        XCTAssertTrue(formd.send(#"{"id":1,"method":"getState"}"# + "\n"))
        try Self.assertSIGTERMEndsAStreamNobodyReads(formd)
    }

    /// Waits while `formd` streams to a stdout nobody reads (its pipe fills and the stream
    /// waits), then checks that SIGTERM ends it within a second, with status 0.
    static func assertSIGTERMEndsAStreamNobodyReads(_ formd: SpawnedFormd, file: StaticString = #filePath, line: UInt = #line) throws {
        usleep(500_000)
        XCTAssertTrue(formd.isRunning, file: file, line: line)
        let start = Date()
        formd.signal(SIGTERM)
        let status = try XCTUnwrap(formd.waitForExit(timeout: 2), "formd did not stop", file: file, line: line)
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, file: file, line: line)
        XCTAssertTrue(WaitStatus.exited(status) && WaitStatus.exitCode(status) == 0, WaitStatus.describe(status), file: file, line: line)
    }

    /// Framed, the answer's size is counted before its header is written.
    func testAStreamedAnswerHasItsContentLength() throws {
        let form = try Self.formFile(fields: 2_000)
        defer { try? FileManager.default.removeItem(at: form) }
        let request = #"{"id":1,"method":"getState"}"#
        let plain = try FormdProcess.run(["--form", form.path], input: request + "\n")
        let framed = try FormdProcess.run(["--form", form.path], input: "Content-Length: \(request.utf8.count)\r\n\r\n" + request)
        let body = plain.stdout.dropLast()  // its newline
        XCTAssertGreaterThan(body.utf8.count, 1_000_000)
        XCTAssertEqual(framed.stdout, "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    }

    /// Labels count as texts do: a few fields with long labels make an answer as large as
    /// long texts do, and in a batch it is counted and refused, not built whole (its size
    /// was judged by texts alone: 5 labels of 200 KB gave a 1 MB answer past the bound).
    func testAGetStateOfLongLabelsInABatchIsCountedAndRefused() throws {
        let label = String(repeating: "L", count: 200_000)
        var input = #"{"id":0,"method":"defineForm","params":{"fields":[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"},{"id":"e"}]}}"# + "\n"
        for id in ["a", "b", "c", "d", "e"] {
            input += #"{"id":"\#(id)","method":"configureField","params":{"field":"\#(id)","label":"\#(label)"}}"# + "\n"
        }
        input += #"[{"id":1,"method":"getState"}]"# + "\n"
        let out = try FormdProcess.run(["--max-line-output", "500000"], input: input)
        let last = try XCTUnwrap(out.stdout.split(separator: "\n").last)
        let batch = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(last.utf8)) as? [[String: Any]])
        let error = try XCTUnwrap(batch.first?["error"] as? [String: Any], "answered whole: \(last.utf8.count) bytes")
        XCTAssertEqual(error["code"] as? Int, -32003)
        XCTAssertTrue((error["message"] as? String ?? "").hasPrefix("limit maxLineOutput exceeded: this getState's answer is "))
    }

    func testAGetStateInABatchPastMaxLineOutputIsRefusedUnbuilt() throws {
        let (line, growth) = try Self.answer(to: #"[{"id":1,"method":"getState"},{"id":2,"method":"validate"}]"#, fields: 65_000)
        XCTAssertLessThan(growth, 24 << 10, "peak RSS grew \(growth) KiB for a refused answer")
        let batch = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line)) as? [[String: Any]])
        XCTAssertEqual(batch.count, 2)
        let error = batch.first?["error"] as? [String: Any]
        XCTAssertEqual(error?["code"] as? Int, -32003)
        let message = error?["message"] as? String ?? ""
        XCTAssertTrue(message.hasPrefix("limit maxLineOutput exceeded: this getState's answer is ")
                      && message.hasSuffix("(raise it with --max-line-output)"), message)
        XCTAssertEqual((batch.last?["error"] as? [String: Any])?["code"] as? Int, -32003, "the rest of the batch is refused too")
    }
}
