import XCTest
@testable import FormdJSON

/// `JSONValue` accessors and literal syntax.
final class ValueTests: XCTestCase {
    func testAccessors() {
        let string: JSONValue = "s"
        XCTAssertEqual(string.stringValue, "s")
        XCTAssertNil(string.boolValue)
        XCTAssertNil(string.arrayValue)
        XCTAssertNil(string.objectValue)
        XCTAssertNil(string.numberValue)
        XCTAssertFalse(string.isNull)

        XCTAssertEqual(JSONValue.bool(false).boolValue, false)
        XCTAssertNil(JSONValue.bool(true).stringValue)
        XCTAssertEqual(JSONValue.array([1]).arrayValue, [1])
        XCTAssertEqual(JSONValue.object(["k": "v"]).objectValue?["k"], "v")
        XCTAssertEqual(JSONValue.number(JSONNumber(3)).numberValue?.intValue, 3)
        XCTAssertTrue(JSONValue.null.isNull)
        XCTAssertNil(JSONValue.null.stringValue)
        XCTAssertNil(JSONValue.string("true").boolValue, "no coercion between types")
        XCTAssertNil(JSONValue.number(JSONNumber(1)).boolValue)
    }

    func testTypeNames() {
        XCTAssertEqual(JSONValue.null.typeName, "null")
        XCTAssertEqual(JSONValue.bool(true).typeName, "boolean")
        XCTAssertEqual(JSONValue.number(JSONNumber(1)).typeName, "number")
        XCTAssertEqual(JSONValue.string("").typeName, "string")
        XCTAssertEqual(JSONValue.array([]).typeName, "array")
        XCTAssertEqual(JSONValue.object(JSONObject()).typeName, "object")
    }

    func testLiterals() {
        let value: JSONValue = ["a": 1, "b": [true, nil], "c": "x", "d": [:], "e": []]
        XCTAssertEqual(value, .object(JSONObject([
            JSONMember(key: "a", value: .number(JSONNumber(1))),
            JSONMember(key: "b", value: .array([.bool(true), .null])),
            JSONMember(key: "c", value: .string("x")),
            JSONMember(key: "d", value: .object(JSONObject())),
            JSONMember(key: "e", value: .array([])),
        ])))
        XCTAssertEqual(JSONWriter.serialize(value), #"{"a":1,"b":[true,null],"c":"x","d":{},"e":[]}"#)
    }

    func testDictionaryLiteralKeepsWrittenOrderAndDuplicates() {
        let value: JSONValue = ["z": 1, "a": 2, "z": 3]
        XCTAssertEqual(value.objectValue?.keys, ["z", "a", "z"])
    }

    func testValuesAreSendable() async {
        let value: JSONValue = ["k": [1, 2, 3]]
        let echoed = await Task.detached { value }.value
        XCTAssertEqual(echoed, value)
    }
}
