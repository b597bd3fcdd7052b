import XCTest
@testable import FormdJSON

/// Successful parses: structure, order, whitespace, strings and escapes.
final class ParserTests: XCTestCase {
    func testScalars() {
        XCTAssertEqual(parseOK("null"), .null)
        XCTAssertEqual(parseOK("true"), .bool(true))
        XCTAssertEqual(parseOK("false"), .bool(false))
        XCTAssertEqual(parseOK("0"), .number(JSONNumber(literal: "0")!))
        XCTAssertEqual(parseOK("-1.5e+3"), .number(JSONNumber(literal: "-1.5e+3")!))
        XCTAssertEqual(parseOK("\"hi\""), .string("hi"))
        XCTAssertEqual(parseOK("\"\""), .string(""))
    }

    func testNestedStructureKeepsOrderAndDuplicates() throws {
        let value = try XCTUnwrap(parseOK(#"{"b":1,"a":[true,null,{"x":"y"}],"b":2}"#))
        let object = try XCTUnwrap(value.objectValue)
        XCTAssertEqual(object.keys, ["b", "a", "b"])
        XCTAssertEqual(object["b"], 1, "subscript returns the first member")
        XCTAssertEqual(object.firstDuplicateKey, "b")
        XCTAssertEqual(object["a"], [true, nil, ["x": "y"]])
        XCTAssertEqual(value, ["b": 1, "a": [true, nil, ["x": "y"]], "b": 2])
    }

    func testEmptyContainers() {
        XCTAssertEqual(parseOK("[]"), .array([]))
        XCTAssertEqual(parseOK("{}"), .object(JSONObject()))
        XCTAssertEqual(parseOK("[ ]"), .array([]))
        XCTAssertEqual(parseOK("{ }"), .object(JSONObject()))
        XCTAssertEqual(parseOK("[[],{},[[]]]"), [[], .object(JSONObject()), [[]]])
        XCTAssertEqual(parseOK(#"{"a":{},"b":[]}"#), ["a": .object(JSONObject()), "b": []])
    }

    func testWhitespaceEverywhereItIsAllowed() {
        let text = " \t\r\n{ \"a\" \n: [ 1 , 2 ] ,\t\"b\" : { } } \n\r\t "
        XCTAssertEqual(parseOK(text), ["a": [1, 2], "b": .object(JSONObject())])
    }

    func testDeeplyNestedMixedContainersWithinLimit() {
        // Alternating objects and arrays, closing several levels at once.
        let text = #"{"a":[{"b":[{"c":[1,{"d":[]}]}]}],"e":0}"#
        XCTAssertEqual(parseOK(text), ["a": [["b": [["c": [1, ["d": []]]]]]], "e": 0])
    }

    func testSimpleEscapes() {
        XCTAssertEqual(parseOK(#""\"\\\/\b\f\n\r\t""#), .string("\"\\/\u{08}\u{0C}\n\r\t"))
        XCTAssertEqual(parseOK(#""a\nb""#), .string("a\nb"))
        XCTAssertEqual(parseOK(#""\u0041\u00e9\u4E2D""#), .string("Aé中"))
        XCTAssertEqual(parseOK(#""\u0000""#), .string("\u{0}"))
        XCTAssertEqual(parseOK(#""x\u001Fy""#), .string("x\u{1F}y"))
    }

    func testSurrogatePairEscapes() {
        XCTAssertEqual(parseOK(#""\uD83D\uDE00""#), .string("😀"))
        XCTAssertEqual(parseOK(#""\ud83d\ude00""#), .string("😀"), "hex digits are case-insensitive")
        XCTAssertEqual(parseOK(#""a\uD834\uDD1Eb""#), .string("a𝄞b"))
        XCTAssertEqual(parseOK(#""\uDBFF\uDFFF""#), .string("\u{10FFFF}"))
    }

    func testEscapesMixedWithLongPlainRuns() {
        let plain = String(repeating: "abcdefgh", count: 10)
        XCTAssertEqual(parseOK("\"\(plain)\\n\(plain)\\u00e9\(plain)\""), .string(plain + "\n" + plain + "é" + plain))
    }

    func testRawUTF8InStrings() {
        let noncharacters = [0xFDD0, 0xFFFF, 0x10FFFF].map { String(UnicodeScalar($0)!) }
        for text in ["é", "e\u{301}", "中文字符", "👍🏽", "mixed ascii and ü and 😀 here"] + noncharacters {
            XCTAssertEqual(parseOK("\"\(text)\""), .string(text), text)
            XCTAssertEqual(parseOK("{\"\(text)\":\"\(text)\"}"), .object([text: .string(text)]))
        }
    }

    func testStringsOfEveryLengthAroundWordBoundaries() {
        // The string scanner works 8 bytes at a time; make sure every tail length is right,
        // and that a special byte at any position in a word is found.
        for length in 0..<40 {
            let plain = String(repeating: "x", count: length)
            XCTAssertEqual(parseOK("\"\(plain)\""), .string(plain))
            for position in 0..<length {
                var chars = Array(plain)
                chars[position] = "é"
                let withUnicode = String(chars)
                XCTAssertEqual(parseOK("\"\(withUnicode)\""), .string(withUnicode))
                var escaped = Array(plain.utf8)
                escaped.replaceSubrange(position..<position + 1, with: Array(#"\n"#.utf8))
                XCTAssertEqual(parseOK("\"\(String(decoding: escaped, as: UTF8.self))\""),
                               .string(String(repeating: "x", count: position) + "\n" + String(repeating: "x", count: length - position - 1)))
            }
        }
    }

    func testShortStringsParseToThemselvesAtEveryLength() {
        // A short ASCII string is written straight into its two inline words (`ShortASCII`):
        // at every length around the 15-byte inline limit, with a byte beyond ASCII among
        // them (which must take the general path) and with an escape, each comes back as
        // itself, as a value and as a key.
        for length in 0...20 {
            let plain = String((0..<length).map { Character(Unicode.Scalar(UInt8(0x61 + $0 % 26))) })
            for word in [plain, plain + "é", "é" + plain, plain + "\\n"] {
                let text = word.replacingOccurrences(of: "\\n", with: "\n")
                XCTAssertEqual(parseOK("\"\(word)\""), .string(text))
                XCTAssertEqual(parseOK("{\"\(word)\":1}")?.objectValue?.members.first?.key, text)
                XCTAssertEqual(parseOK("\"\(word)\"")?.stringValue.map { Array($0.utf8) }, Array(text.utf8))
            }
        }
    }

    func testAllThreeEntryPointsAgree() throws {
        let text = #"{"jsonrpc":"2.0","id":17,"method":"setText","params":{"text":"héllo"}}"#
        let bytes = Array(text.utf8)
        let fromString = try JSONParser.parse(text)
        let fromArray = try JSONParser.parse(bytes)
        let fromPointer = try bytes.withUnsafeBytes { buffer in try JSONParser.parse(buffer) }
        XCTAssertEqual(fromString, fromArray)
        XCTAssertEqual(fromString, fromPointer)
    }

    func testParsesFromSubstringBackedAndBufferSlices() throws {
        // A buffer slice that is not at the start of its allocation, with junk on both sides.
        let bytes = Array("xx[1,\"a\"]yy".utf8)
        let value = try bytes.withUnsafeBytes { buffer in
            try JSONParser.parse(UnsafeRawBufferPointer(rebasing: buffer[2..<9]))
        }
        XCTAssertEqual(value, [1, "a"])
    }

    func testTypicalJSONRPCRequest() throws {
        let text = #"{"jsonrpc":"2.0","id":17,"method":"setText","params":{"form":"default","field":"email","text":"hello world"}}"#
        let request = try XCTUnwrap(parseOK(text)?.objectValue)
        XCTAssertEqual(request["jsonrpc"]?.stringValue, "2.0")
        XCTAssertEqual(request["id"]?.numberValue?.intValue, 17)
        XCTAssertEqual(request["method"]?.stringValue, "setText")
        XCTAssertEqual(request["params"]?.objectValue?["text"]?.stringValue, "hello world")
        XCTAssertNil(request.firstDuplicateKey)
    }

    func testLargeArray() throws {
        let count = 10_000
        let text = "[" + (0..<count).map(String.init).joined(separator: ",") + "]"
        let array = try XCTUnwrap(parseOK(text)?.arrayValue)
        XCTAssertEqual(array.count, count)
        XCTAssertEqual(array.last?.numberValue?.intValue, count - 1)
    }
}
