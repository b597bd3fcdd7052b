import XCTest
@testable import FormdJSON

/// parse ∘ write and write ∘ parse.
final class RoundTripTests: XCTestCase {
    func testCompactTextSurvivesParseAndWriteByteForByte() throws {
        let documents = [
            #"{"jsonrpc":"2.0","id":17,"method":"setText","params":{"form":"default","field":"email","text":"hello world"}}"#,
            #"[1,-0,1.50,1e-07,2E+10,true,false,null,"",{},[]]"#,
            #"{"a":{"b":{"c":[[[{"d":"e"}]]]}}}"#,
            #"{"dup":1,"dup":2}"#,
            #"["\"\\\b\f\n\r\t\u0000\u001f","é","e\u0301","👍🏽","中文"]"#.replacingOccurrences(of: #"\u0301"#, with: "\u{301}"),
        ]
        for text in documents {
            XCTAssertEqual(JSONWriter.serialize(try JSONParser.parse(text)), text)
        }
    }

    func testEscapesAreNormalizedToTheWritersForm() throws {
        XCTAssertEqual(JSONWriter.serialize(try JSONParser.parse(#"["\/","\u0041","\u00E9","\uD83D\uDE00","\u001F"]"#)),
                       "[\"/\",\"A\",\"é\",\"😀\",\"\\u001f\"]")
        XCTAssertEqual(JSONWriter.serialize(try JSONParser.parse(" { \"a\" : [ 1 , 2 ] } ")), #"{"a":[1,2]}"#)
    }

    func testValuesSurviveWriteAndParse() throws {
        var everyBMPEdge = ""
        for scalar in [0x0, 0x1, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF] {
            everyBMPEdge.unicodeScalars.append(UnicodeScalar(scalar)!)
        }
        let values: [JSONValue] = [
            ["text": .string(everyBMPEdge), "n": .number(JSONNumber(-1.25e-300)), "i": .number(JSONNumber(Int.min))],
            .string(String((0..<128).map { Character(UnicodeScalar(UInt8($0))) })),
            [["é": ["e\u{301}": ["👍🏽": nil]]]],
        ]
        for value in values {
            XCTAssertEqual(try JSONParser.parse(JSONWriter.serialize(value)), value)
        }
    }

    func testJSONTestSuiteAcceptedFilesRoundTrip() throws {
        for (name, bytes) in try jsonTestSuiteCases(prefix: "y_") {
            let value = try JSONParser.parse(bytes)
            let written = JSONWriter.serialize(value)
            do {
                let reparsed = try JSONParser.parse(written)
                XCTAssertEqual(reparsed, value, name)
                XCTAssertEqual(JSONWriter.serialize(reparsed), written, "\(name): writer output is a fixed point")
            } catch {
                XCTFail("\(name): writer produced unparsable \(written): \(error.message)")
            }
        }
    }
}
