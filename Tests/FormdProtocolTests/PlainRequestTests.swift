import FormdJSON
@testable import FormdProtocol
import FormdTestSupport
import Foundation
import XCTest

/// `Envelope(plainRequest:)` decodes plain requests without a value tree. Whatever it
/// accepts must come out exactly as `JSONParser` + `Envelope(_:)` would have it; whatever
/// else it declines, so the long way decodes or refuses it.
final class PlainRequestTests: XCTestCase {
    /// The long way: what a line decodes to without the shortcut (nil: not one request).
    func general(_ line: [UInt8]) -> Envelope? {
        guard let value = try? JSONParser.parse(line, maxDepth: 64), case .object = value else { return nil }
        return Envelope(value)
    }

    func plain(_ line: [UInt8], maxDepth: Int = 64) -> Envelope? {
        line.withUnsafeBytes { Envelope(plainRequest: $0, maxDepth: maxDepth) }
    }

    func compact(_ line: [UInt8], maxDepth: Int = 64) -> Envelope? {
        line.withUnsafeBytes { Envelope(compactKeystroke: $0, maxDepth: maxDepth) }
    }

    /// Checks one line against both shortcuts; true when the plain one took it.
    @discardableResult
    func check(_ line: [UInt8], file: StaticString = #filePath, lineNumber: UInt = #line) -> Bool {
        checkCompact(line, file: file, lineNumber: lineNumber)
        guard let fast = plain(line) else { return false }
        agree(fast, line, file: file, lineNumber: lineNumber)
        return true
    }

    /// Checks one line against the compact shortcut; true when it took it.
    @discardableResult
    func checkCompact(_ line: [UInt8], file: StaticString = #filePath, lineNumber: UInt = #line) -> Bool {
        guard let fast = compact(line) else { return false }
        agree(fast, line, file: file, lineNumber: lineNumber)
        return true
    }

    func agree(_ fast: Envelope, _ line: [UInt8], file: StaticString, lineNumber: UInt) {
        let text = String(decoding: line, as: UTF8.self).debugDescription
        guard let slow = general(line) else {
            XCTFail("a shortcut accepted what the parser refuses or reads as no request: \(text)", file: file, line: lineNumber)
            return
        }
        XCTAssertEqual(fast, slow, text, file: file, line: lineNumber)
    }

    static let plainLines = [
        #"{"jsonrpc":"2.0","id":7,"method":"insertText","params":{"field":"a","text":"x"}}"#,
        #"{"id":"k","method":"setText","params":{"field":"a","text":"héllo 👍"}}"#,
        #"{"method":"pressReturn"}"#,
        #"{"id":null,"method":"select","params":{"field":"a","start":0,"end":2}}"#,
        #" { "id" : 1 , "method" : "delete" , "params" : { } } "#,
        #"{"id":1,"method":"moveCaret","params":{"to":"end","extend":true}}"#,
        #"{"id":-12.5e3,"method":"getState","params":{"includeSecrets":false}}"#,
        #"{"id":1,"method":"setText","params":{"field":"a","text":"tab\there \"quoted\" \u00e9"}}"#,
        // Well-formed requests the method decoder refuses: the same error either way.
        #"{"id":1,"method":"nope"}"#,
        #"{"id":1,"method":"setText","params":{"field":"a"}}"#,
        #"{"id":1,"method":"setText","params":{"field":"a","text":"x","bogus":1}}"#,
        #"{"id":1,"method":"setText","params":{"field":"a","field":"b","text":"x"}}"#,
        #"{"id":1,"method":"setText","params":{"field":1,"text":"x"}}"#,
    ]

    static let otherLines = [
        #"{"id":1,"id":2,"method":"validate"}"#,
        #"{"id":1,"method":"validate","extra":1}"#,
        #"{"id":true,"method":"validate"}"#,
        #"{"jsonrpc":"2.1","id":1,"method":"validate"}"#,
        #"{"jsonrpc":2,"id":1,"method":"validate"}"#,
        #"{"id":1,"method":7}"#,
        #"{"id":1}"#,
        #"{}"#,
        #"{"id":1,"method":"validate","params":[]}"#,
        #"{"id":1,"method":"validate","params":null}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}]}}"#,
        #"{"id":1,"method":"validate",}"#,
        #"{"id":1,"method":"validate"} x"#,
        #"{"id":1,"method":"validate""#,
        #"{"\u0069d":1,"method":"validate"}"#,
        #"{"id":01,"method":"validate"}"#,
        #"[{"id":1,"method":"validate"}]"#,
        #"{"id":1,"method":"setText","params":{"field":"a","text":"x"},}"#,
        #"{"id":1,"method":"setText","params":{"field":"a","text":"x",}}"#,
        #"{"id":1,"method":"setText","params":{"field":"a","text":"bad \x"}}"#,
    ]

    func testPlainRequestsTakeTheShortcutAndDecodeAsTheParserWould() {
        for line in Self.plainLines {
            XCTAssertTrue(check(Array(line.utf8)), "not taken: \(line)")
        }
    }

    func testEveryOtherShapeTakesTheLongWay() {
        for line in Self.otherLines {
            XCTAssertNil(plain(Array(line.utf8)), line)
        }
        XCTAssertNil(plain([0x7B, 0x22, 0x69, 0x64, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D]), "invalid UTF-8")
        XCTAssertNil(plain(Array(Self.plainLines[0].utf8), maxDepth: 1), "params would exceed maxDepth 1")
    }

    /// Keystrokes as the clients write them, every key in any order.
    static let compactLines = [
        #"{"jsonrpc":"2.0","id":7,"method":"insertText","params":{"field":"a","text":"x"}}"#,
        #"{"params":{"text":"x"},"method":"insertText","id":"k-1","jsonrpc":"2.0"}"#,
        #"{"jsonrpc":"2.0","id":-0,"method":"setText","params":{"form":"login","field":"user","text":"hello world"}}"#,
        #"{"id":123456789012345678901234567890,"method":"setText","params":{"text":"","field":"a"}}"#,
        #"{"method":"delete"}"#,
        #"{"id":1,"method":"delete","params":{}}"#,
        #"{"id":1,"method":"delete","params":{"field":"a","direction":"forward","unit":"word"}}"#,
        #"{"id":1,"method":"pressReturn","params":{"field":"a"}}"#,
        #"{"id":1,"method":"demandFocus","params":{"demand":"resign","field":"b"}}"#,
    ]

    /// Lines the compact shortcut leaves to the plain way: other spellings, other methods,
    /// and params the method refuses (whose message the plain way words).
    static let notCompactLines = [
        #"{"jsonrpc":"2.0", "id":7,"method":"insertText","params":{"field":"a","text":"x"}}"#,
        #"{"id":7,"method":"insertText","params":{"field":"a","text":"x"}} "#,
        #"{"id":1,"method":"insertText","params":{"text":"café"}}"#,
        #"{"id":1,"method":"insertText","params":{"text":"café"}}"#,
        #"{"id":1,"method":"insertText","params":{"text":"a"b"}}"#,
        #"{"id":null,"method":"insertText","params":{"text":"x"}}"#,
        #"{"id":1.5,"method":"insertText","params":{"text":"x"}}"#,
        #"{"id":1e3,"method":"insertText","params":{"text":"x"}}"#,
        #"{"id":01,"method":"insertText","params":{"text":"x"}}"#,
        #"{"id":-,"method":"insertText","params":{"text":"x"}}"#,
        #"{"id":1,"method":"select","params":{"start":0,"end":1}}"#,
        #"{"jsonrpc":"2.1","id":1,"method":"delete"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"deletes"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"demandFocu"}"#,
        #"{"id":1,"method":"delete","params":{"fields":"a"}}"#,
        #"{"id":1,"method":"delete","params":{"dir":"forward"}}"#,
        #"{"id":1,"method":"insertText","params":{"text":1}}"#,
        #"{"id":1,"method":"insertText","params":{"text":"x","text":"y"}}"#,
        #"{"id":1,"id":2,"method":"insertText","params":{"text":"x"}}"#,
        #"{"id":1,"method":"insertText","params":{"text":"x","demand":"become"}}"#,
        #"{"id":1,"method":"insertText","params":{"field":"a"}}"#,
        #"{"id":1,"method":"setText","params":{"text":"x"}}"#,
        #"{"id":1,"method":"delete","params":{"unit":"paragraph"}}"#,
        #"{"id":1,"method":"demandFocus","params":{"field":"a"}}"#,
        #"{"id":1,"method":"insertText","params":{"text":"x"},"extra":1}"#,
        #"{"jsonrpc":"2.1","id":1,"method":"insertText","params":{"text":"x"}}"#,
        #"{"id":1,"method":"insertText","params":{"text":"x"}"#,
        #"{"id":1,"method":"insertText","params":{"text":"x"}}}"#,
        #"{"id":1,"method":"insertText","params":{"text":"x",}}"#,
        #"{"id":1,"method":"insertText","params":["x"]}"#,
        #"{}"#,
    ]

    func testCompactKeystrokesTakeTheCompactShortcutAndDecodeAsTheParserWould() {
        for line in Self.compactLines {
            XCTAssertTrue(checkCompact(Array(line.utf8)), "not taken: \(line)")
        }
        XCTAssertNil(compact(Array(Self.compactLines[0].utf8), maxDepth: 1), "params would exceed maxDepth 1")
    }

    func testEveryOtherLineTakesAnotherWay() {
        for line in Self.notCompactLines {
            XCTAssertNil(compact(Array(line.utf8)), line)
            check(Array(line.utf8))
        }
        // A control character in a string is not JSON.
        XCTAssertNil(compact(Array(#"{"id":1,"method":"insertText","params":{"text":"a"#.utf8) + [0x09] + Array(#""}}"#.utf8)))
    }

    /// Every request line of the transcripts, and thousands of random mutations of them.
    func testTranscriptLinesAndTheirMutationsAgree() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("protocol/transcripts")
        var lines: [[UInt8]] = (Self.plainLines + Self.otherLines + Self.compactLines + Self.notCompactLines).map { Array($0.utf8) }
        for file in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where file.hasSuffix(".jsonl") {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("> ") {
                lines.append(Array(line.dropFirst(2).utf8))
            }
        }
        XCTAssertGreaterThan(lines.count, 200)
        var taken = 0
        for line in lines where check(line) { taken += 1 }
        XCTAssertGreaterThan(taken, lines.count / 2, "most transcript requests are plain")
        XCTAssertGreaterThan(lines.filter { compact($0) != nil }.count, 30, "transcript keystrokes are compact")

        let alphabet = Array(#"{}[]:,"\ 0123456789.-eEtrufalsn"#.utf8) + [0xC3, 0xA9, 0x00, 0x1F]
        var rng = SplitMix64(seed: 0x9E71)
        for _ in 0..<20_000 {
            var line = lines[rng.next(below: lines.count)]
            for _ in 0...rng.next(below: 3) {
                let at = rng.next(below: line.count + 1)
                switch rng.next(below: 3) {
                case 0 where at < line.count: line.remove(at: at)
                case 1: line.insert(alphabet[rng.next(below: alphabet.count)], at: at)
                default: if at < line.count { line[at] = alphabet[rng.next(below: alphabet.count)] }
                }
            }
            check(line)
        }
    }
}
