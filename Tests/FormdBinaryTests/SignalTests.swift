import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// How the real binary ends: on SIGTERM and SIGINT it answers what it has handled, in
/// whole lines, and exits 0; when its reader closes stdout it stops quietly (exit 0, no
/// message) without spinning, even while stdin stays open; at end of input it exits 0.
/// It never has children of its own, and it is always reaped.
final class SignalTests: XCTestCase {
    static let define = #"{"id":0,"method":"defineForm","params":{"fields":[{"id":"a"}]}}"# + "\n"

    static func burst(_ count: Int, from first: Int = 1) -> [UInt8] {
        Array((first..<first + count).map { #"{"id":\#($0),"method":"insertText","params":{"field":"a","text":"x"}}"# + "\n" }.joined().utf8)
    }

    /// Checks that `output` is whole lines of JSON and that the responses among them
    /// answer requests 0, 1, 2, … in order with none missing. Returns how many.
    static func answeredPrefix(_ output: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> Int {
        if let last = output.last { XCTAssertEqual(last, 0x0A, "the output ends inside a line", file: file, line: line) }
        var next = 0
        for text in output.split(separator: 0x0A) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(text)) as? [String: Any] else {
                XCTFail("not a whole JSON line: \(String(decoding: text.prefix(200), as: UTF8.self))", file: file, line: line)
                return next
            }
            guard let id = object["id"] as? Int else { continue }
            XCTAssertEqual(id, next, "responses must answer requests in order, none skipped", file: file, line: line)
            XCTAssertNil(object["error"], "request \(id) failed: \(object)", file: file, line: line)
            next = id + 1
        }
        return next
    }

    func testTerminationSignalsFlushWholeLinesAndExitZero() throws {
        for sig in [SIGTERM, SIGINT] {
            let formd = try SpawnedFormd([])
            let total = 60_000
            XCTAssertTrue(formd.send(Self.define))
            let writer = formd.sendInBackground(Self.burst(total))
            // Let it get well into the burst, then ask it to stop while input is still coming.
            var seen: [UInt8] = []
            for _ in 0..<400 {
                guard let line = formd.readLine() else { break }
                seen += Array(line.utf8) + [0x0A]
            }
            XCTAssertTrue(formd.children.isEmpty, "formd must not start processes")
            formd.signal(sig)
            let output = seen + formd.readToEnd()
            let status = try XCTUnwrap(formd.waitForExit(timeout: 10), "signal \(sig): formd did not exit")
            XCTAssertTrue(WaitStatus.exited(status) && WaitStatus.exitCode(status) == 0,
                          "signal \(sig): \(WaitStatus.describe(status))")
            let answered = Self.answeredPrefix(output)
            XCTAssertGreaterThan(answered, 200, "signal \(sig)")
            XCTAssertEqual(formd.stderrText(), "", "signal \(sig): a signal is a normal way to stop: nothing on stderr")
            XCTAssertEqual(writer.wait(timeout: .now() + 10), .success, "formd stopped reading, so the writer ends")
            formd.closeStdin()
            XCTAssertFalse(formd.isRunning)
        }
    }

    /// A reader that never reads: formd is blocked writing (on the serving thread for a few
    /// requests, on the read-ahead thread in a burst) and still ends at once on SIGTERM.
    func testSIGTERMEndsFormdWhileAWriteIsBlocked() throws {
        let fields = (0..<200).map { #"{"id":"f\#($0)"}"# }.joined(separator: ",")
        for requests in [50, 3000] {
            let formd = try SpawnedFormd([])
            formd.send(#"{"id":0,"method":"defineForm","params":{"fields":[\#(fields)]}}"# + "\n")
            let writer = formd.sendInBackground(Array((1...requests).map { #"{"id":\#($0),"method":"getState"}"# + "\n" }.joined().utf8))
            // 50 states are 6 MB: far more than the pipe holds, so formd blocks writing.
            var blocked = false
            for _ in 0..<100 where !blocked {
                usleep(20_000)
                let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(formd.pid)/task")) ?? []
                blocked = tasks.contains { (try? String(contentsOfFile: "/proc/\(formd.pid)/task/\($0)/wchan", encoding: .utf8))?.contains("pipe_write") == true }
            }
            XCTAssertTrue(blocked, "\(requests) requests: formd never blocked writing")
            let start = Date()
            formd.signal(SIGTERM)
            let status = try XCTUnwrap(formd.waitForExit(timeout: 5), "\(requests) requests: no exit while a write is blocked")
            let elapsed = Date().timeIntervalSince(start)
            XCTAssertEqual(WaitStatus.exitCode(status), 0, WaitStatus.describe(status))
            XCTAssertLessThan(elapsed, 0.5, "\(requests) requests: \(Int(elapsed * 1000)) ms to stop")
            formd.closeStdout()
            _ = writer.wait(timeout: .now() + 5)
        }
    }

    /// stdout on a full disk is an error said on stderr, exit 1: not the quiet end of a
    /// reader that went away (exit 0, nothing said).
    func testAWriteErrorIsReportedWithExitOne() throws {
        let process = Process()
        process.executableURL = FormdProcess.binary
        let stdin = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data((Self.define + #"{"id":1,"method":"getState"}"# + "\n").utf8))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1)
        XCTAssertEqual(String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                       "formd: cannot write to stdout: No space left on device\n")
    }

    func testIdleDaemonStopsAtOnceOnSIGTERM() throws {
        let formd = try SpawnedFormd([])
        formd.send(Self.define)
        XCTAssertNotNil(formd.readLine())  // formDefined
        XCTAssertEqual(formd.readLine(), #"{"jsonrpc":"2.0","id":0,"result":{}}"#)
        // Blocked waiting for input with stdin open: the signal alone must end it.
        let start = Date()
        formd.signal(SIGTERM)
        let status = try XCTUnwrap(formd.waitForExit(timeout: 5), "formd ignored SIGTERM while idle")
        XCTAssertEqual(WaitStatus.exitCode(status), 0, WaitStatus.describe(status))
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        XCTAssertEqual(formd.readToEnd(timeout: 1), [])
    }

    func testClosedStdoutEndsItQuietlyWithoutSpinning() throws {
        // Idle: nothing to write, stdin kept open; the reader's going away alone ends it.
        // Busy: blocked writing a burst nobody reads, more input coming.
        for busy in [false, true] {
            let formd = try SpawnedFormd([])
            formd.send(Self.define)
            XCTAssertNotNil(formd.readLine())
            var writer: DispatchGroup? = nil
            if busy {
                writer = formd.sendInBackground(Self.burst(40_000))
                usleep(300_000)  // its stdout pipe fills up; it blocks in write
            }
            formd.closeStdout()
            let status = try XCTUnwrap(formd.waitForExit(timeout: 5), "busy \(busy): formd kept running with its stdout closed")
            XCTAssertTrue(WaitStatus.exited(status) && WaitStatus.exitCode(status) == 0, "busy \(busy): \(WaitStatus.describe(status))")
            XCTAssertEqual(formd.stderrText(), "", "busy \(busy): it stops quietly")
            // A loop on EPIPE or on a hung-up descriptor would burn CPU until the deadline.
            XCTAssertLessThan(formd.cpuSeconds ?? 99, 1.0, "busy \(busy): CPU time")
            _ = writer?.wait(timeout: .now() + 10)
            formd.closeStdin()
        }
    }

    func testRequestsAfterStdoutClosedDoNotKeepItAlive() throws {
        let formd = try SpawnedFormd([])
        formd.send(Self.define)
        XCTAssertNotNil(formd.readLine())
        formd.closeStdout()
        // Keep talking for a while; the daemon must be gone long before we stop.
        let deadline = Date().addingTimeInterval(2)
        var i = 1
        while Date() < deadline, formd.send(#"{"id":\#(i),"method":"validate"}"# + "\n") {
            i += 1
            usleep(2_000)
        }
        let status = try XCTUnwrap(formd.waitForExit(timeout: 5))
        XCTAssertEqual(WaitStatus.exitCode(status), 0, WaitStatus.describe(status))
        XCTAssertLessThan(formd.cpuSeconds ?? 99, 1.0)
    }

    func testEndOfInputAnswersEverythingAndExitsZero() throws {
        let formd = try SpawnedFormd([])
        formd.send(Self.define)
        let writer = formd.sendInBackground(Self.burst(5_000), thenClose: true)
        let output = formd.readToEnd()
        XCTAssertEqual(writer.wait(timeout: .now() + 1), .success)
        let status = try XCTUnwrap(formd.waitForExit())
        XCTAssertEqual(WaitStatus.exitCode(status), 0, WaitStatus.describe(status))
        XCTAssertEqual(Self.answeredPrefix(output), 5_001)
    }

    func testAClientThatVanishesLeavesNoDaemonBehind() throws {
        // The client dies without a word: the kernel closes both its pipe ends.
        let formd = try SpawnedFormd([])
        formd.send(Self.define)
        XCTAssertNotNil(formd.readLine())
        formd.closeStdin()
        formd.closeStdout()
        let status = try XCTUnwrap(formd.waitForExit(timeout: 5), "formd outlived its client")
        XCTAssertEqual(WaitStatus.exitCode(status), 0, WaitStatus.describe(status))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/proc/\(formd.pid)/stat"), "reaped: no zombie left")
    }
}
