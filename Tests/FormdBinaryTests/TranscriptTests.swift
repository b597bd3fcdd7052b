import Foundation
import XCTest

/// Every transcript in protocol/transcripts is replayed through the real binary and its
/// output compared line by line, exactly. The transcripts are the protocol's examples, so
/// the documentation cannot drift from the implementation.
///
/// Format: `# args: …` (optional, first line), `# …` comments, `> ` a line sent,
/// `< ` a line expected on stdout, in order; every stdout line must be listed. `# restart`
/// ends formd there (end of input) and starts it again (`{state}` in the args: a fresh path).
final class TranscriptTests: XCTestCase {
    struct Transcript {
        /// One run of formd: the lines sent and the lines expected.
        struct Session {
            var input: [String] = []
            var expected: [String] = []
        }

        var name: String
        var args: [String] = []
        var sessions = [Session()]

        init(name: String, text: String) {
            self.name = name
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if line.hasPrefix("# args:") {
                    args = line.dropFirst("# args:".count).split(separator: " ").map(String.init)
                } else if line == "# restart" {
                    sessions.append(Session())
                } else if line.hasPrefix("> ") {
                    sessions[sessions.count - 1].input.append(String(line.dropFirst(2)))
                } else if line == ">" {
                    sessions[sessions.count - 1].input.append("")
                } else if line.hasPrefix("< ") {
                    sessions[sessions.count - 1].expected.append(String(line.dropFirst(2)))
                }
            }
        }

        /// Runs every session in turn, each a new formd with the same arguments, `{state}`
        /// in them a path in a fresh directory shared by the sessions of this replay.
        func replay(_ each: (_ name: String, _ args: [String], _ session: Session) throws -> Void) throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("formd-transcript-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            defer { try? FileManager.default.removeItem(at: dir) }
            let args = args.map { $0.replacingOccurrences(of: "{state}", with: dir.appendingPathComponent("state").path) }
            for (i, session) in sessions.enumerated() {
                try each(sessions.count > 1 ? "\(name) session \(i + 1)" : name, args, session)
            }
        }
    }

    private func transcripts() throws -> [Transcript] {
        let dir = FormdProcess.packageRoot.appendingPathComponent("protocol/transcripts")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        XCTAssertFalse(files.isEmpty, "no transcripts in \(dir.path)")
        return try files.map { Transcript(name: $0, text: try String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8)) }
            // Transcripts of several clients over `--listen {socket}` are replayed by
            // protocol/conformance/run (a scripts/test step), which speaks to sockets.
            .filter { !$0.args.contains { $0.contains("{socket}") } }
    }

    func testEveryTranscriptReplaysExactly() throws {
        for t in try transcripts() {
            try t.replay { name, args, session in
                XCTAssertFalse(session.input.isEmpty, "\(name): no input lines")
                let output = try FormdProcess.run(args, input: session.input.map { $0 + "\n" }.joined())
                compare(name, output, session.expected)
            }
        }
    }

    /// The same conversations with every line sent as a `Content-Length` message (an empty
    /// line as an empty body): the same answers come back, each as a message, and
    /// `initialize` says `contentLength`.
    func testEveryTranscriptReplaysExactlyInContentLengthFraming() throws {
        for t in try transcripts() {
            try t.replay { name, args, session in
                var input = Data()
                for line in session.input { input.append(FramedMessages.frame(Data(line.utf8))) }
                let raw = try FormdProcess.run(args, inputData: input)
                var output = raw
                guard let bodies = FramedMessages.split(Data(raw.stdout.utf8)) else {
                    XCTFail("\(name): the output is not a sequence of Content-Length messages: \(raw.stdout.prefix(300))")
                    return
                }
                output.stdout = bodies.map { String(decoding: $0, as: UTF8.self) + "\n" }.joined()
                let expected = session.expected.map { $0.replacingOccurrences(of: "\"framing\":\"ndjson\"", with: "\"framing\":\"contentLength\"") }
                compare(name + " (Content-Length)", output, expected)
            }
        }
    }

    private func compare(_ name: String, _ output: FormdProcess.Output, _ expected: [String]) {
        XCTAssertEqual(output.status, 0, "\(name): exit status; stderr: \(output.stderr)")
        let actual = output.stdoutLines
        for i in 0..<max(actual.count, expected.count) {
            let want = i < expected.count ? expected[i] : "(nothing)"
            let got = i < actual.count ? actual[i] : "(nothing)"
            if want != got {
                XCTFail("\(name): output line \(i + 1) differs\n  expected: \(want)\n  actual:   \(got)")
                break
            }
        }
    }
}
