import Foundation
import XCTest

/// The command-line surface: help, version, usage errors and bad form files.
final class CommandLineTests: XCTestCase {
    func testHelpExplainsUsageAndOptions() throws {
        let out = try FormdProcess.run(["--help"])
        XCTAssertEqual(out.status, 0)
        for needle in ["USAGE: formd", "--form <file>", "--max-line-bytes", "--max-depth", "--version", "protocol/README.md"] {
            XCTAssertTrue(out.stdout.contains(needle), "--help lacks \(needle)")
        }
    }

    func testVersion() throws {
        let out = try FormdProcess.run(["--version"])
        XCTAssertEqual(out.status, 0)
        XCTAssertTrue(out.stdout.hasPrefix("formd "), out.stdout)
    }

    func testUnknownOptionIsAUsageErrorOnStderr() throws {
        let out = try FormdProcess.run(["--frobnicate"])
        XCTAssertEqual(out.status, 2)
        XCTAssertEqual(out.stdout, "")
        XCTAssertTrue(out.stderr.contains("unknown option '--frobnicate'"), out.stderr)
        XCTAssertTrue(out.stderr.contains("formd --help"), out.stderr)
    }

    func testBadLimitValue() throws {
        let out = try FormdProcess.run(["--max-depth", "zero"])
        XCTAssertEqual(out.status, 2)
        XCTAssertTrue(out.stderr.contains("'--max-depth' takes a whole number"), out.stderr)
    }

    func testBadFormFilesNameTheFileAndTheProblem() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("formd-cli-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases: [(String, String, String)] = [
            ("syntax.json", "{\"fields\": [", "not valid JSON"),
            ("array.json", "[]", "must be a JSON object"),
            ("nofields.json", "{}", "missing \"fields\""),
            ("badkey.json", "{\"fields\":[{\"id\":\"a\",\"colour\":\"red\"}]}", "unknown key \"colour\" in fields[0]"),
            ("badtype.json", "{\"fields\":[{\"id\":\"a\",\"secure\":\"yes\"}]}", "\"secure\" in fields[0] must be true or false, got string"),
            ("dup.json", "{\"fields\":[{\"id\":\"a\"},{\"id\":\"a\"}]}", "duplicate field id \"a\""),
            ("preset.json", "{\"fields\":[{\"id\":\"a\",\"configuration\":[\"nope\"]}]}", "unknown preset \"nope\""),
            ("regex.json", "{\"fields\":[{\"id\":\"a\",\"pattern\":\"(\"}]}", "\"pattern\" in fields[0]: group opened at offset 0 is not closed"),
            ("action.json", "{\"fields\":[{\"id\":\"a\",\"returnAction\":\"jump\"}]}", "\"returnAction\" in fields[0] must be one of"),
        ]
        for (name, content, problem) in cases {
            let path = dir.appendingPathComponent(name).path
            try content.write(toFile: path, atomically: true, encoding: .utf8)
            let out = try FormdProcess.run(["--form", path], input: "{\"id\":1,\"method\":\"getState\"}\n")
            XCTAssertEqual(out.status, 2, name)
            XCTAssertEqual(out.stdout, "", "\(name): nothing may reach stdout")
            XCTAssertTrue(out.stderr.contains(path), "\(name): stderr must name the file: \(out.stderr)")
            XCTAssertTrue(out.stderr.contains(problem), "\(name): stderr must say \(problem): \(out.stderr)")
        }
        let missing = try FormdProcess.run(["--form", dir.appendingPathComponent("absent.json").path])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("absent.json") && missing.stderr.contains("No such file"), missing.stderr)
    }

    func testBundledExamplesLoad() throws {
        let examples = FormdProcess.packageRoot.appendingPathComponent("examples")
        let forms = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".json") }
        XCTAssertFalse(forms.isEmpty)
        for form in forms {
            let out = try FormdProcess.run(["--form", "examples/\(form)"], input: "{\"id\":1,\"method\":\"validate\"}\n")
            XCTAssertEqual(out.status, 0, "\(form): \(out.stderr)")
            XCTAssertEqual(out.stdoutLines.count, 1, form)
        }
    }
}
