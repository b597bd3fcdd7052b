import XCTest
@testable import FormdJSON

/// Exact writer output: compactness, escapes, Unicode, raw pieces.
final class WriterTests: XCTestCase {
    func utf8(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }

    func quoted(_ s: String) -> String {
        var writer = JSONWriter()
        writer.writeString(s)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    func testCompactStructure() {
        let value: JSONValue = ["jsonrpc": "2.0", "id": 17, "result": ["ok": true, "list": [1, nil, "x", [:], []]]]
        XCTAssertEqual(JSONWriter.serialize(value), #"{"jsonrpc":"2.0","id":17,"result":{"ok":true,"list":[1,null,"x",{},[]]}}"#)
        XCTAssertEqual(JSONWriter.serialize(nil), "null")
        XCTAssertEqual(JSONWriter.serialize(false), "false")
        XCTAssertEqual(JSONWriter.serialize(""), #""""#)
        XCTAssertEqual(JSONWriter.serialize([[[]]]), "[[[]]]")
    }

    func testShortEscapes() {
        XCTAssertEqual(quoted("\"\\\u{08}\u{0C}\n\r\t"), #""\"\\\b\f\n\r\t""#)
        XCTAssertEqual(quoted("a\"b"), #""a\"b""#)
        XCTAssertEqual(quoted("C:\\path"), #""C:\\path""#)
    }

    func testEveryControlCharacter() {
        let short: [UInt8: String] = [0x08: #"\b"#, 0x09: #"\t"#, 0x0A: #"\n"#, 0x0C: #"\f"#, 0x0D: #"\r"#]
        let hex = Array("0123456789abcdef")
        for byte in UInt8(0)..<0x20 {
            let expected = short[byte] ?? "\\u00\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])"
            XCTAssertEqual(quoted(String(UnicodeScalar(byte))), "\"\(expected)\"", "byte \(byte)")
        }
        XCTAssertEqual(quoted("\u{0}"), #""\u0000""#)
        XCTAssertEqual(quoted("\u{1F}"), #""\u001f""#)
        XCTAssertEqual(quoted("\u{1B}[0m"), #""\u001b[0m""#)
    }

    func testCharactersThatAreNotEscaped() {
        XCTAssertEqual(quoted("/"), #""/""#)
        XCTAssertEqual(quoted("\u{7F}"), "\"\u{7F}\"")
        XCTAssertEqual(quoted("<script>&'"), #""<script>&'""#)
        XCTAssertEqual(quoted("\u{2028}\u{2029}"), "\"\u{2028}\u{2029}\"")
    }

    func testNonASCIIIsWrittenAsRawUTF8() {
        // é composed (U+00E9) and decomposed (e + U+0301) stay exactly as given.
        XCTAssertEqual(utf8(.string("\u{E9}")), [0x22, 0xC3, 0xA9, 0x22])
        XCTAssertEqual(utf8(.string("e\u{301}")), [0x22, 0x65, 0xCC, 0x81, 0x22])
        // Thumbs up + medium skin tone modifier: two scalars, one grapheme.
        XCTAssertEqual(utf8(.string("👍🏽")), [0x22, 0xF0, 0x9F, 0x91, 0x8D, 0xF0, 0x9F, 0x8F, 0xBD, 0x22])
        // CJK.
        XCTAssertEqual(utf8(.string("中文")), [0x22, 0xE4, 0xB8, 0xAD, 0xE6, 0x96, 0x87, 0x22])
        XCTAssertEqual(JSONWriter.serialize(["é": "e\u{301}", "中": "👍🏽"]), "{\"é\":\"e\u{301}\",\"中\":\"👍🏽\"}")
        // Escapes next to multi-byte characters.
        XCTAssertEqual(quoted("é\n中\t👍🏽\""), "\"é\\n中\\t👍🏽\\\"\"")
    }

    func testEscapeAtEveryPositionOfShortAndLongStrings() {
        // The scanner checks 8 bytes at a time; a special byte must be found wherever it sits.
        for length in 1..<40 {
            for position in 0..<length {
                for (special, escaped) in [("\"", "\\\""), ("\\", "\\\\"), ("\n", "\\n"), ("\u{1}", "\\u0001")] {
                    let before = String(repeating: "a", count: position)
                    let after = String(repeating: "b", count: length - position - 1)
                    XCTAssertEqual(quoted(before + special + after), "\"" + before + escaped + after + "\"")
                }
            }
            let plain = String(repeating: "é", count: length)
            XCTAssertEqual(quoted(plain), "\"" + plain + "\"")
        }
    }

    func testStringsFromSubstringsAndLongStrings() {
        let long = String(repeating: "0123456789", count: 1000) + "\"end"
        XCTAssertEqual(quoted(long), "\"" + String(repeating: "0123456789", count: 1000) + "\\\"end\"")
        let text = "xx hello \"world\" yy"
        let sub = text.dropFirst(3).dropLast(3)
        XCTAssertEqual(quoted(String(sub)), #""hello \"world\"""#)
    }

    func testNumbersAreWrittenVerbatim() {
        let value: JSONValue = [.number(JSONNumber(literal: "1.50")!), .number(JSONNumber(literal: "-0")!),
                                .number(JSONNumber(literal: "1E+400")!), .number(JSONNumber(2.5)), 7]
        XCTAssertEqual(JSONWriter.serialize(value), "[1.50,-0,1E+400,2.5,7]")
    }

    func testWriteInt() {
        // Every digit count, at its edges: the writer counts digits before writing them.
        var powers: [Int] = []
        var power = 1
        for _ in 0...18 {
            powers += [power - 1, power, power + 1, -power + 1, -power, -power - 1]
            if power <= Int.max / 10 { power *= 10 }
        }
        for v in [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, -1, -9, -10, -99, -100, 1234567890, Int.max, Int.min, Int.min + 1]
            + powers + Array(stride(from: -200_000, through: 200_000, by: 37)) {
            var writer = JSONWriter()
            writer.writeInt(v)
            XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), String(v))
        }
    }

    func testHandBuiltHotPathOutput() throws {
        var writer = JSONWriter(reservingCapacity: 64)
        writer.writeRaw(#"{"jsonrpc":"2.0","id":"#)
        writer.writeInt(17)
        writer.writeRaw(#","result":{"text":"#)
        writer.writeString("line1\nline2 \"q\" é")
        writer.writeRaw(Array("}}".utf8))
        let text = String(decoding: writer.bytes, as: UTF8.self)
        XCTAssertEqual(text, #"{"jsonrpc":"2.0","id":17,"result":{"text":"line1\nline2 \"q\" é"}}"#)
        XCTAssertEqual(try JSONParser.parse(text), ["jsonrpc": "2.0", "id": 17, "result": ["text": "line1\nline2 \"q\" é"]])
    }

    func testWriterAppendsAndCanBeReused() {
        var writer = JSONWriter()
        writer.write(1)
        writer.writeRaw("\n")
        writer.write(["a": nil])
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), "1\n{\"a\":null}")
        writer.removeAll()
        writer.write([true])
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), "[true]")
    }

    func testSingleScalarStaticString() {
        var writer = JSONWriter()
        writer.writeRaw("é")  // a StaticString made of one scalar has no pointer representation
        writer.writeRaw(",")
        XCTAssertEqual(writer.bytes, [0xC3, 0xA9, 0x2C])
    }
}

/// A writer is a value: copies share their buffer only until one of them writes.
final class WriterValueTests: XCTestCase {
    func testCopiesAreIndependent() {
        var a = JSONWriter(reservingCapacity: 16)
        a.writeRaw("[1,2")
        var b = a
        b.writeRaw(",3]")
        a.writeRaw("]")
        XCTAssertEqual(String(decoding: a.bytes, as: UTF8.self), "[1,2]")
        XCTAssertEqual(String(decoding: b.bytes, as: UTF8.self), "[1,2,3]")
        var c = b
        c[1] = UInt8(ascii: "9")
        c.truncate(to: 2)
        XCTAssertEqual(String(decoding: b.bytes, as: UTF8.self), "[1,2,3]", "set and truncate on a copy leave the original")
        XCTAssertEqual(String(decoding: c.bytes, as: UTF8.self), "[9")
        var d = b
        d.removeFirst(3)
        d.writeString("x", after: ",")
        XCTAssertEqual(String(decoding: d.bytes, as: UTF8.self), "2,3],\"x\"")
        XCTAssertEqual(b.count, 7)
    }

    func testGrowsFarPastItsReservation() {
        var w = JSONWriter(reservingCapacity: 1)
        var expected = ""
        for i in 0..<5_000 {
            w.writeInt(i, after: ",")
            expected += ",\(i)"
        }
        XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), expected)
        w.removeAll()
        XCTAssertTrue(w.isEmpty)
        XCTAssertGreaterThanOrEqual(w.capacity, expected.utf8.count, "removeAll keeps the buffer")
    }
}
