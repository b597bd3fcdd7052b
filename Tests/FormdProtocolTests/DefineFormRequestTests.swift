import FormdCore
import FormdJSON
@testable import FormdProtocol
import FormdTestSupport
import XCTest

/// `Envelope(defineForm:)` reads a `defineForm` line's specs straight from its bytes. Whatever
/// it takes must come out exactly as `JSONParser` + `Envelope(_:)` decode it; whatever the
/// long way refuses it must decline, so that the long way words the error.
final class DefineFormRequestTests: XCTestCase {
    /// The long way, under `maxDepth`: nil when the line is not JSON (or too deep) or is a batch.
    func general(_ line: [UInt8], maxDepth: Int) -> Envelope? {
        guard let value = try? JSONParser.parse(line, maxDepth: maxDepth), case .object = value else { return nil }
        return Envelope(value)
    }

    func fast(_ line: [UInt8], maxDepth: Int = 64) -> Envelope? {
        line.withUnsafeBytes { Envelope(defineForm: $0, maxDepth: maxDepth) }
    }

    /// Checks `line` under `maxDepth`; true when the shortcut took it.
    @discardableResult
    func check(_ line: [UInt8], maxDepth: Int = 64, file: StaticString = #filePath, lineNumber: UInt = #line) -> Bool {
        guard let taken = fast(line, maxDepth: maxDepth) else { return false }
        let text = String(decoding: line, as: UTF8.self).debugDescription
        guard let slow = general(line, maxDepth: maxDepth) else {
            XCTFail("taken, but the parser refuses it (maxDepth \(maxDepth)): \(text)", file: file, line: lineNumber)
            return true
        }
        XCTAssertEqual(taken, slow, text, file: file, line: lineNumber)
        return true
    }

    static let takenLines = [
        #"{"jsonrpc":"2.0","id":0,"method":"defineForm","params":{"fields":[{"id":"f0"},{"id":"f1"},{"id":"f2"}]}}"#,
        #"{"jsonrpc":"2.0","id":"d","method":"defineForm","params":{"form":"login","fields":[{"id":"user","text":""},{"text":"x","id":"pass"}]}}"#,
        #" { "method" : "defineForm" , "params" : { "fields" : [ { "id" : "a" } , { "id" : "b" , "text" : "héllo \"q\" \u00e9" } ] } , "id" : null } "#,
        #"{"method":"defineForm","params":{"fields":[]}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"customer.address.line000001"},{"id":"日本"},{"id":"e\u0301"}]}}"#,
        // Specs of other shapes are parsed one at a time and decoded as the long way decodes them.
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a","label":"A","configuration":["email"]},{"id":"b","pattern":"[0-9]+","hints":{"k":[1,{"v":2}]}}]}}"#,
        #"{"id":1,"method":"defineForm","params":{"presets":{"p":{"label":"P","maxLength":3}},"fields":[{"id":"a","configuration":["p"]},{"id":"b"}]}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a","secure":true,"required":true,"minLength":1,"maxLength":null,"supportedEditActions":["copy"]}]}}"#,
    ]

    /// Lines the long way refuses (or that are not `defineForm`), and a few it takes that
    /// the shortcut leaves to it.
    static let declinedLines = [
        #"{"id":1,"method":"insertText","params":{"field":"a","text":"x"}}"#,
        #"{"id":1,"params":{"fields":[{"id":"a"}]},"method":"defineForm"}"#,
        #"{"id":1,"method":"defineForm"}"#,
        #"{"id":1,"method":"defineForm","params":{}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":{}}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":""}]}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{}]}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a","id":"b"}]}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a","text":null}]}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":1}]}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":["a"]}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a","bogus":1}]}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a","pattern":"("}]}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"},]}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}],}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}]},}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}]}} x"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}]}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}],"fields":[]}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}],"form":1}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}],"presets":[]}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}],"presets":{"p":{"id":"x"}}}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}],"extra":1}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}]},"extra":1}"#,
        #"{"id":true,"method":"defineForm","params":{"fields":[{"id":"a"}]}}"#,
        #"{"jsonrpc":"2.1","id":1,"method":"defineForm","params":{"fields":[{"id":"a"}]}}"#,
        #"{"id":1,"id":2,"method":"defineForm","params":{"fields":[{"id":"a"}]}}"#,
        #"{"id":1,"method":"defineForm","method":"defineForm","params":{"fields":[{"id":"a"}]}}"#,
        #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a\x"}]}}"#,
        #"[{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}]}}]"#,
    ]

    func testTheUsualLinesAreTakenAndDecodeAsTheParserWould() {
        for line in Self.takenLines {
            XCTAssertTrue(check(Array(line.utf8)), "not taken: \(line)")
        }
    }

    func testLinesTheLongWayRefusesAreDeclined() {
        for line in Self.declinedLines {
            XCTAssertNil(fast(Array(line.utf8)), line)
        }
        XCTAssertNil(fast(Array(#"{"id":1,"method":"defineForm","params":{"fields":[{"id":""#.utf8) + [0xC3, 0x28, 0x22, 0x7D, 0x5D, 0x7D, 0x7D]),
                     "invalid UTF-8")
    }

    /// Every limit on nesting: the shortcut takes a line only where the parser does.
    func testNestingLimitsAreThoseOfTheParser() {
        let lines = Self.takenLines + [#"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a","hints":{"a":{"b":{"c":[[1]]}}}}]}}"#]
        for line in lines {
            for depth in 0...9 { check(Array(line.utf8), maxDepth: depth) }
        }
        XCTAssertNil(fast(Array(Self.takenLines[0].utf8), maxDepth: 3), "a spec would exceed maxDepth 3")
        XCTAssertNotNil(fast(Array(Self.takenLines[0].utf8), maxDepth: 4))
    }

    /// Generated `defineForm` lines of every shape, then each with one byte changed: what
    /// the shortcut takes decodes as the parser decodes it, and it takes most of the
    /// well-formed ones.
    func testGeneratedLinesDecodeAsTheParserWould() {
        var rng = SplitMix64(seed: 0xDEF1)
        func pick<T>(_ items: [T]) -> T { items[rng.next(below: items.count)] }
        let keys = ["id", "id", "id", "text", "text"] + FieldSpecDecoder.optionKeys + ["configuration", "bogus", "I\u{0064}", "\u{212A}"]
        let ids = ["\"a\"", "\"f12\"", "\"\"", "\"customer.address.line000082\"", "\"日本\"", "\"e\\u0301\"", "\"\\\"q\"", "1", "null"]
        let values = ["\"x\"", "\"\"", "\"héllo\"", "\"a\\nb\"", "null", "true", "false", "0", "12", "-1", "1.5", "[]",
                      "[\"email\"]", "[\"copy\",\"paste\"]", "[\"a\",1]", "{}", "{\"a\":1,\"a\":2}", "{\"k\":[1,{\"v\":2}]}",
                      "\"[a-z]+\"", "\"(\"", "\"next\"", "\"never\""]
        let spaces = ["", "", "", " ", "\n ", "\t"]
        func spec() -> String {
            var members: [String] = []
            for _ in 0..<(1 + rng.next(below: 3)) {
                let key = pick(keys)
                members.append("\"\(key)\"\(pick(spaces)):\(pick(spaces))\(key == "id" ? pick(ids) : pick(values))")
            }
            if rng.next(below: 6) == 0 { members.shuffle(using: &rng) }
            return "{" + members.joined(separator: "," + pick(spaces)) + "}"
        }
        func line() -> String {
            var params: [String] = []
            let count = rng.next(below: 12) == 0 ? 40 : rng.next(below: 5)
            params.append("\"fields\":[" + (0..<count).map { _ in spec() }.joined(separator: ",") + "]")
            if rng.next(below: 5) == 0 { params.append("\"form\":" + pick(["\"f\"", "\"login\"", "1", "null"])) }
            if rng.next(below: 6) == 0 { params.append("\"presets\":" + pick(["{}", "{\"p\":{\"label\":\"P\"}}", "{\"p\":{\"id\":\"x\"}}", "[]"])) }
            params.shuffle(using: &rng)
            var members = ["\"method\":\"defineForm\"", "\"params\":{" + params.joined(separator: ",") + "}"]
            if rng.next(below: 2) == 0 { members.insert("\"id\":" + pick(["0", "\"r\"", "null", "-1.5e3"]), at: rng.next(below: 3)) }
            if rng.next(below: 2) == 0 { members.insert("\"jsonrpc\":\"2.0\"", at: 0) }
            return "{" + members.joined(separator: pick([",", ", "])) + "}"
        }
        var taken = 0, acceptedByParser = 0, mutatedTaken = 0
        for _ in 0..<4_000 {
            let bytes = Array(line().utf8)
            let wasTaken = check(bytes)
            if wasTaken { taken += 1 }
            if let e = general(bytes, maxDepth: 64), case .success = e.call { acceptedByParser += 1 }
            // Mostly the lines that decode: their mutations are the near misses.
            for _ in 0..<(wasTaken ? 6 : 1) {
                var mutated = bytes
                let at = rng.next(below: mutated.count)
                switch rng.next(below: 4) {
                case 0: mutated.remove(at: at)
                case 1: mutated.insert(pick(Array(" \t\n".utf8)), at: at)
                case 2: mutated.insert(pick(Array("{}[],:\"\\x0".utf8)), at: at)
                default: mutated[at] = pick(Array("{}[],:\"\\a1".utf8) + [0xC3, 0x80])
                }
                if check(mutated) { mutatedTaken += 1 }
            }
            check(bytes, maxDepth: 3 + rng.next(below: 3))
        }
        XCTAssertGreaterThan(acceptedByParser, 400)
        XCTAssertGreaterThanOrEqual(taken, acceptedByParser * 9 / 10, "the shortcut declines too many of the lines the parser takes")
        XCTAssertGreaterThan(mutatedTaken, 250)
    }
}
