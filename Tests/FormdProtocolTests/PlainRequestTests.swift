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

    func keystroke(_ line: [UInt8], maxDepth: Int = 64) -> Envelope? {
        line.withUnsafeBytes { Envelope(keystroke: $0, maxDepth: maxDepth) }
    }

    /// Checks one line against both shortcuts; true when the plain one took it.
    @discardableResult
    func check(_ line: [UInt8], file: StaticString = #filePath, lineNumber: UInt = #line) -> Bool {
        checkKeystroke(line, file: file, lineNumber: lineNumber)
        guard let fast = plain(line) else { return false }
        agree(fast, line, file: file, lineNumber: lineNumber)
        return true
    }

    /// Checks one line against the keystroke shortcut; true when it took it.
    @discardableResult
    func checkKeystroke(_ line: [UInt8], file: StaticString = #filePath, lineNumber: UInt = #line) -> Bool {
        guard let fast = keystroke(line) else { return false }
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

    /// Keystrokes as clients write them: every key in any order, spaced or not, any UTF-8.
    static let keystrokeLines = [
        #"{"jsonrpc":"2.0","id":7,"method":"insertText","params":{"field":"a","text":"x"}}"#,
        #"{"params":{"text":"x"},"method":"insertText","id":"k-1","jsonrpc":"2.0"}"#,
        #"{"jsonrpc":"2.0","id":-0,"method":"setText","params":{"form":"login","field":"user","text":"hello world"}}"#,
        #"{"id":123456789012345678901234567890,"method":"setText","params":{"text":"","field":"a"}}"#,
        #"{"method":"delete"}"#,
        #"{"id":1,"method":"delete","params":{}}"#,
        #"{"id":1,"method":"delete","params":{"field":"a","direction":"forward","unit":"word"}}"#,
        #"{"id":1,"method":"pressReturn","params":{"field":"a"}}"#,
        #"{"id":1,"method":"demandFocus","params":{"demand":"resign","field":"b"}}"#,
        #"{"jsonrpc":"2.0", "id":7,"method":"insertText","params":{"field":"a","text":"x"}}"#,
        #"{"id":7,"method":"insertText","params":{"field":"a","text":"x"}} "#,
        #"{"method": "insertText", "id": 999, "jsonrpc": "2.0", "params": {"field": "f35", "text": "c"}}"#,
        " \t{ \"id\"\r\n:\t\"k\" ,\n\"method\" : \"pressReturn\" , \"params\" : { \"field\" : \"a\" } }\r\n ",
        #"{"id":1,"method":"insertText","params":{"text":"café"}}"#,
        #"{"id":1,"method":"insertText","params":{"text":"cafe\#u{301}"}}"#,
        #"{"id":"réq-日本-👍🏽","method":"setText","params":{"field":"customer.address.line000082","text":"日本語のテキスト"}}"#,
        #"{"id":"a-request-id-well-past-fifteen-bytes","method":"delete","params":{"field":"ünïcode-fïeld"}}"#,
        // The canonical order, compact, as most clients write it (read without a member lookup).
        #"{"jsonrpc":"2.0","id":"req-2","method":"insertText","params":{"field":"customer.address.line000047","text":"e"}}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"delete","params":{"field":"f9","unit":"word"}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"pressReturn","params":{"field":"f12"}}"#,
        #"{"jsonrpc":"2.0","id":5,"method":"demandFocus","params":{"demand":"become","field":"a"}}"#,
        #"{"jsonrpc":"2.0","id":6,"method":"setText","params":{"field":"f9","text":"日本語のテキスト"}}"#,
        #"{"jsonrpc":"2.0","id":-7,"method":"delete","params":{}}"# + " \r\n",
        // Other orders, compact or with one space after each colon and comma (as Python's
        // json.dumps writes): each key read with its value's opening token in one window.
        #"{"params": {"field": "f3", "text": "a"}, "id": 7, "jsonrpc": "2.0", "method": "insertText"}"#,
        #"{"method":"demandFocus","params":{"demand":"become","field":"f80"},"jsonrpc":"2.0","id":105}"#,
        #"{"id": "r-1", "method": "delete", "params": {"direction": "backward", "unit": "word", "form": "x"}, "jsonrpc": "2.0"}"#,
        #"{"jsonrpc": "2.0", "method": "setText", "params": {"text": "日本", "field": "f1"}, "id": -12}"#,
        #"{"params":{"form":"f","field":"a"},"id":3,"method":"pressReturn"}"#,
        #"{"jsonrpc": "2.0","params": {},"id": 0,"method": "delete"}"#,
        #"{"jsonrpc":  "2.0", "id":  1, "method":  "delete", "params":  {"field":  "a"}}"#,
    ]

    /// Lines the keystroke shortcut leaves to the plain way: escapes, other methods, and
    /// params the method refuses (whose message the plain way words).
    static let notKeystrokeLines = [
        #"{"id":1,"method":"insertText","params":{"text":"a\"b"}}"#,
        #"{"id":1,"method":"insertText","params":{"te\u0078t":"x"}}"#,
        #"{"id":"\u0041","method":"insertText","params":{"text":"x"}}"#,
        #"{"id":1,"method":"insertText","params":{"text":"a"b"}}"#,
        #"{"id":1,"method":"insertText","params":{"text":"x"},"id":1}"#,
        #"{"id":1,"method":"insertText","params":{"text":"x"},"params":{"text":"x"}}"#,
        #"{"id":1,"method":"insertText","params":{"text":"x"} , }"#,
        #"{"id":1,"method":"insertText","params":{"text":"x"}} x"#,
        #"{"id":1,"method":"insertText","params":{"text":"x"}}\#u{0B}"#,
        #"{"id":1 ,"method":"insertText","params":{"text":"x"}}\#u{A0}"#,
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

    func testKeystrokesTakeTheKeystrokeShortcutAndDecodeAsTheParserWould() {
        for line in Self.keystrokeLines {
            XCTAssertTrue(checkKeystroke(Array(line.utf8)), "not taken: \(line)")
        }
        XCTAssertNil(keystroke(Array(Self.keystrokeLines[0].utf8), maxDepth: 1), "params would exceed maxDepth 1")
    }

    /// The scan's sets of keys and members use bits spelt out case by case: each is its
    /// raw value's bit, distinct from the others'.
    func testKeyAndMemberBitsAreTheirRawValuesBits() {
        for key in KeystrokeMethod.Key.allCases { XCTAssertEqual(Int(key.bit), 1 << key.rawValue, key.name) }
        for member in RequestMember.allCases { XCTAssertEqual(Int(member.bit), 1 << member.rawValue, "\(member)") }
    }

    /// Every start of a keystroke line, cut anywhere (the cursor's words run past the end of
    /// the shorter ones), and each with a byte changed at each place.
    func testCutAndChangedKeystrokesAgree() {
        let spaced = #" { "params" : { "demand" : "become" , "field" : "a" } , "method" : "demandFocus" , "id" : "r" } "#
        for text in Self.keystrokeLines + [spaced, #"{"method":"pressReturn","id":12}"#] {
            let line = Array(text.utf8)
            for cut in 0...line.count {
                check(Array(line[..<cut]))
                if cut < line.count {
                    for byte: UInt8 in [0x20, 0x22, 0x3A, 0x7D, 0x00, 0xC3, UInt8(ascii: "x")] {
                        var changed = line
                        changed[cut] = byte
                        check(changed)
                    }
                }
            }
        }
    }

    func testEveryOtherLineTakesAnotherWay() {
        for line in Self.notKeystrokeLines {
            XCTAssertNil(keystroke(Array(line.utf8)), line)
            check(Array(line.utf8))
        }
        // A control character in a string is not JSON.
        XCTAssertNil(keystroke(Array(#"{"id":1,"method":"insertText","params":{"text":"a"#.utf8) + [0x09] + Array(#""}}"#.utf8)))
        // Malformed UTF-8 is not JSON: a stray continuation byte, an overlong form, a surrogate, a cut sequence.
        for bad: [UInt8] in [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE6, 0x97]] {
            XCTAssertNil(keystroke(Array(#"{"id":1,"method":"insertText","params":{"text":"a"#.utf8) + bad + Array(#""}}"#.utf8)))
        }
    }

    /// Every request line of the transcripts, and thousands of random mutations of them.
    func testTranscriptLinesAndTheirMutationsAgree() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("protocol/transcripts")
        var lines: [[UInt8]] = (Self.plainLines + Self.otherLines + Self.keystrokeLines + Self.notKeystrokeLines).map { Array($0.utf8) }
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
        XCTAssertGreaterThan(lines.filter { keystroke($0) != nil }.count, 30, "transcript keystrokes take the shortcut")

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

    /// Requests put together from parts as clients (and careless ones) write them: members
    /// in any order, whitespace wherever JSON allows it, strings in any script, long ids,
    /// duplicate members and keys, values of the wrong type; half of them mutated a byte or
    /// two. Whatever a shortcut takes must decode as the parser has it.
    func testGeneratedRequestsAgree() {
        var rng = SplitMix64(seed: 0x5EED_4D0C)
        func pick<T>(_ items: [T]) -> T { items[rng.next(below: items.count)] }
        let spaces = ["", "", "", " ", "  ", "\t", "\n", "\r\n", " \t "]
        let strings = ["", "a", "f12", "hello world", "customer.address.line000082", "héllo wörld", "日本語のテキスト",
                       "👍🏽 ok", "e\u{301}te\u{301}", "Ωμέγα", "ß", "del\u{7F}"]
        let escaped = ["a\\\"b", "tab\\tthere", "\\u00e9", "\\ud83d\\ude00"]
        let ids = ["7", "-3", "0", "123456789012345678901", "\"req-9\"", "\"réq-ü\"", "\"a-request-id-well-past-fifteen-bytes\""]
        let odd = ["null", "1.5", "1e3", "-0.0", "01", "true", "\"\\u0041\"", "{}"]
        let methods = KeystrokeMethod.allCases.map(\.name)
        let others = ["select", "insertTex", "demandFocusX", "Delete"]
        let keys = KeystrokeMethod.Key.allCases.map(\.name) + ["bogus"]
        let values = ["direction": ["forward", "backward", "sideways"], "unit": ["character", "word", "line", "paragraph"],
                      "demand": ["become", "resign", "maybe"]]
        var taken = 0
        let canonicalOrder = ["jsonrpc", "id", "method", "params"]
        for round in 0..<20_000 {
            // A third of them compact, members in the spec's order, as most clients write them;
            // a third spaced as json.dumps writes (one space after each colon and comma).
            let canonical = round % 3 == 0, dumps = round % 3 == 1
            var out = ""
            func space() {
                if dumps { if out.hasSuffix(":") || out.hasSuffix(",") { out += " " } } else if !canonical { out += pick(spaces) }
            }
            func token(_ text: String) { space(); out += text }
            func quoted(_ text: String) { token("\"" + text + "\"") }
            func members(_ list: [(String, () -> Void)]) {
                token("{")
                for (i, (key, value)) in list.enumerated() {
                    if i > 0 { token(",") }
                    quoted(key)
                    token(":")
                    value()
                }
                token("}")
            }
            // Mostly a method's own keys, sometimes one it does not take.
            let method = rng.next(below: 10) == 0 ? pick(others) : pick(methods)
            let own = KeystrokeMethod.allCases.first { $0.name == method }?.keyNames ?? ["field"]
            var params: [(String, () -> Void)] = []
            for key in keys where own.contains(key) ? rng.next(below: 4) != 0 : rng.next(below: 30) == 0 {
                params.append((key, {
                    switch rng.next(below: 20) {
                    case 0: token(pick(["1", "true", "null", "[]"]))
                    case 1...8: quoted(pick(values[key] ?? strings))
                    case 9: quoted(pick(escaped))
                    default: quoted(pick(strings))
                    }
                }))
            }
            if rng.next(below: 20) == 0, let again = params.first { params.append(again) }
            params.shuffle(using: &rng)
            var envelope: [(String, () -> Void)] = [("method", { quoted(method) })]
            if rng.next(below: 8) != 0 { envelope.append(("jsonrpc", { token(pick(["\"2.0\"", "\"2.0\"", "\"2.0\"", "\"2.0\"", "\"2.0\"", "\"2.0\"", "\"2.1\"", "2"])) })) }
            if rng.next(below: 8) != 0 { envelope.append(("id", { token(rng.next(below: 10) == 0 ? pick(odd) : pick(ids)) })) }
            if rng.next(below: 10) != 0 { envelope.append(("params", { members(params) })) }
            if rng.next(below: 40) == 0 { envelope.append((pick(["id", "method", "params", "extra"]), { token("1") })) }
            envelope.shuffle(using: &rng)
            if canonical { envelope.sort { canonicalOrder.firstIndex(of: $0.0) ?? 4 < canonicalOrder.firstIndex(of: $1.0) ?? 4 } }
            members(envelope)
            space()
            var line = Array(out.utf8)
            if round % 2 == 1 {
                for _ in 0...rng.next(below: 2) {
                    let at = rng.next(below: line.count + 1)
                    let byte = pick(Array(#"{}:," \"#.utf8) + [0x09, 0x0A, 0x0B, 0x80, 0xC3, 0xE6])
                    if at < line.count && rng.next(below: 2) == 0 { line[at] = byte } else { line.insert(byte, at: at) }
                }
            }
            if keystroke(line) != nil { taken += 1 }
            check(line)
        }
        XCTAssertGreaterThan(taken, 2_000, "the keystroke shortcut takes generated keystrokes")
    }
}
