import Foundation
import XCTest

/// Every transcript in protocol/transcripts is replayed through the real binary and its
/// output compared line by line, exactly. The transcripts are the protocol's examples, so
/// the documentation cannot drift from the implementation.
///
/// Format: `# args: …` (optional, first line), `# …` comments, `> ` a line sent,
/// `< ` a line expected on stdout, in order; every stdout line must be listed.
final class TranscriptTests: XCTestCase {
    struct Transcript {
        var name: String
        var args: [String] = []
        var input: [String] = []
        var expected: [String] = []

        init(name: String, text: String) {
            self.name = name
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if line.hasPrefix("# args:") {
                    args = line.dropFirst("# args:".count).split(separator: " ").map(String.init)
                } else if line.hasPrefix("> ") {
                    input.append(String(line.dropFirst(2)))
                } else if line == ">" {
                    input.append("")
                } else if line.hasPrefix("< ") {
                    expected.append(String(line.dropFirst(2)))
                }
            }
        }
    }

    func testEveryTranscriptReplaysExactly() throws {
        let dir = FormdProcess.packageRoot.appendingPathComponent("protocol/transcripts")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        XCTAssertFalse(files.isEmpty, "no transcripts in \(dir.path)")
        for file in files {
            let t = Transcript(name: file, text: try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8))
            XCTAssertFalse(t.input.isEmpty, "\(file): no input lines")
            let output = try FormdProcess.run(t.args, input: t.input.map { $0 + "\n" }.joined())
            XCTAssertEqual(output.status, 0, "\(file): exit status; stderr: \(output.stderr)")
            let actual = output.stdoutLines
            for i in 0..<max(actual.count, t.expected.count) {
                let want = i < t.expected.count ? t.expected[i] : "(nothing)"
                let got = i < actual.count ? actual[i] : "(nothing)"
                if want != got {
                    XCTFail("\(file): output line \(i + 1) differs\n  expected: \(want)\n  actual:   \(got)")
                    break
                }
            }
        }
    }
}
