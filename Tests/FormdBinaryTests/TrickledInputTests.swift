import Foundation
import XCTest

/// The stdio server answers a burst on two threads, holding events and responses and
/// writing them in one pass (`HeldOutput.write`); input that trickles in takes the path a
/// line at a time. Whatever the pieces the input comes in, the output is the same bytes.
final class TrickledInputTests: XCTestCase {
    /// A session of keystrokes on two forms with their events, responses held between them,
    /// batches, failed notifications (`error` notifications), a parse error, `textSync`
    /// and encoding switches, and large answers and events streamed between them (a state
    /// of 400 fields, its `submit` and `reset`).
    private static func session() -> [String] {
        let big = (0..<400).map { #"{"id":"f\#($0)","text":"initial text of field \#($0)"}"# }.joined(separator: ",")
        var lines = [#"{"id":"big","method":"defineForm","params":{"form":"big","fields":[\#(big)]}}"#,
                     #"{"id":"d","method":"defineForm","params":{"fields":[{"id":"a"},{"id":"pw","secure":true},{"id":"b","maxLength":4}]}}"#]
        let steps: [(Int) -> String] = [
            { #"{"id":\#($0),"method":"insertText","params":{"field":"a","text":"é👍🏽\#($0)"}}"# },
            { _ in #"{"method":"insertText","params":{"field":"pw","text":"s"}}"# },
            { #"{"id":\#($0),"method":"delete","params":{"field":"a","unit":"word"}}"# },
            { #"[{"id":\#($0),"method":"undo","params":{"field":"a"}},{"method":"redo","params":{"field":"a"}},{"id":"x\#($0)","method":"insertText","params":{"field":"b","text":"xyz"}}]"# },
            { _ in #"{"method":"insertText","params":{"field":"nope","text":"z"}}"# },
            { #"{"id":\#($0),"method":"initialize","params":{"textSync":"\#($0 % 2 == 0 ? "incremental" : "full")","positionEncoding":"\#(["utf-16", "character", "utf-8"][$0 % 3])"}}"# },
            { #"{"id":\#($0),"method":"setText","params":{"form":"big","field":"f\#($0 % 400)","text":"t\#($0)"}}"# },
            { _ in "{not json" },
            { #"{"id":\#($0),"method":"\#(["getState", "submit", "reset"][$0 % 3])","params":{"form":"big"}}"# },
            { #"{"id":\#($0),"method":"select","params":{"field":"a","start":0,"end":1}}"# },
        ]
        for n in 0..<600 { lines.append(steps[n % steps.count](n)) }
        return lines
    }

    /// Writes `input` to a new formd in pieces of 1 to 4,000 bytes, pausing now and then so
    /// that each read takes what has come so far; returns everything it wrote.
    private func trickle(_ input: Data) throws -> Data {
        let process = Process()
        process.executableURL = FormdProcess.binary
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        nonisolated(unsafe) var out = Data()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            out = stdout.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        var at = 0, n = 0
        let sizes = [1, 7, 50, 333, 4_000, 2]
        while at < input.count {
            let end = min(input.count, at + sizes[n % sizes.count])
            try stdin.fileHandleForWriting.write(contentsOf: input[at..<end])
            at = end
            n += 1
            if n % 5 == 0 { usleep(300) }
        }
        try stdin.fileHandleForWriting.close()
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return out
    }

    func testTrickledInputIsAnsweredByteForByteAsABurst() throws {
        let lines = Self.session()
        let ndjson = Data((lines.joined(separator: "\n") + "\n").utf8)
        var framed = Data()
        for line in lines { framed.append(FramedMessages.frame(line)) }
        for (name, input) in [("NDJSON", ndjson), ("Content-Length", framed)] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("formd-trickle-\(getpid())-\(name).in")
            defer { try? FileManager.default.removeItem(at: file) }
            try input.write(to: file)
            let (process, stdout) = try FormdProcess.start(stdinFile: file)
            let burst = stdout.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
            let trickled = try trickle(input)
            XCTAssertEqual(trickled.count, burst.count, name)
            XCTAssertTrue(trickled == burst, "\(name): the trickled output differs from the burst's")
            // The session did what it is for: events, held responses, errors, large answers.
            let text = String(decoding: burst, as: UTF8.self)
            for expected in [#""method":"textChanged""#, #""method":"error""#, #""code":-32700"#, #""method":"formReset""#,
                             #""method":"submitted""#, #""text":"initial text of field 399""#, #""result":{"applied":true}"#] {
                XCTAssertTrue(text.contains(expected), "\(name): \(expected)")
            }
            XCTAssertGreaterThan(burst.count, 1 << 20, name)
        }
    }
}
