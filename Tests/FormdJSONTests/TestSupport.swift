import Foundation
import FormdTestSupport
import XCTest
@testable import FormdJSON

/// Parses `text` and returns the error, failing the test if parsing succeeded.
func parseError(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth,
                file: StaticString = #filePath, line: UInt = #line) -> JSONParseError? {
    parseError(Array(text.utf8), maxDepth: maxDepth, file: file, line: line)
}

/// Parses raw bytes and returns the error, failing the test if parsing succeeded.
func parseError(_ bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth,
                file: StaticString = #filePath, line: UInt = #line) -> JSONParseError? {
    do {
        let value = try JSONParser.parse(bytes, maxDepth: maxDepth)
        XCTFail("expected a parse error, got \(JSONWriter.serialize(value))", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

/// Asserts that parsing fails with `kind` at `offset`.
func assertParseError(_ text: String, _ kind: JSONParseError.Kind, at offset: Int, maxDepth: Int = JSONParser.defaultMaxDepth,
                      file: StaticString = #filePath, line: UInt = #line) {
    assertParseError(Array(text.utf8), kind, at: offset, maxDepth: maxDepth, file: file, line: line)
}

func assertParseError(_ bytes: [UInt8], _ kind: JSONParseError.Kind, at offset: Int, maxDepth: Int = JSONParser.defaultMaxDepth,
                      file: StaticString = #filePath, line: UInt = #line) {
    guard let error = parseError(bytes, maxDepth: maxDepth, file: file, line: line) else { return }
    XCTAssertEqual(error.kind, kind, "message: \(error.message)", file: file, line: line)
    XCTAssertEqual(error.offset, offset, "message: \(error.message)", file: file, line: line)
    XCTAssertTrue(error.message.hasSuffix("at byte \(offset)"), "message should end with the offset: \(error.message)",
                  file: file, line: line)
}

/// Parses, failing the test (and returning nil) on error.
func parseOK(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth,
             file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
    do {
        return try JSONParser.parse(text, maxDepth: maxDepth)
    } catch {
        XCTFail("unexpected parse error for \(text.debugDescription): \(error.message)", file: file, line: line)
        return nil
    }
}

/// `Tests/FormdJSONTests/<this file>` → package root → `../shared/testdata/...`.
var jsonTestSuiteDirectory: URL {
    URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // FormdJSONTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("../shared/testdata/JSONTestSuite/test_parsing")
        .standardizedFileURL
}

/// All `.json` files with the given prefix, sorted, as (name, bytes). Fails loudly if the
/// suite is missing: a silently skipped conformance suite is worse than a red test.
func jsonTestSuiteCases(prefix: String, file: StaticString = #filePath, line: UInt = #line) throws -> [(String, [UInt8])] {
    let directory = jsonTestSuiteDirectory
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
        XCTFail("JSONTestSuite not found at \(directory.path); expected ../shared/testdata/JSONTestSuite/test_parsing relative to the package root",
                file: file, line: line)
        return []
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }
        .sorted()
    XCTAssertFalse(names.isEmpty, "no \(prefix)*.json files in \(directory.path)", file: file, line: line)
    return names.compactMap { name in
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
            XCTFail("\(name): could not be read", file: file, line: line)
            return nil
        }
        return (name, [UInt8](data))
    }
}

/// A deliberately naive, scalar-by-scalar reference for the writer's string escaping.
func referenceQuoted(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\u{08}": out += "\\b"
        case "\u{0C}": out += "\\f"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\u{0}"..."\u{1F}":
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
