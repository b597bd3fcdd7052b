import XCTest
@testable import FormdJSON

/// `JSONObject`: ordered members, duplicates, lookups.
final class ObjectTests: XCTestCase {
    func testLookupAndOrder() {
        var object = JSONObject()
        object.append("z", 1)
        object.append("a", "x")
        object.append("m", nil)
        XCTAssertEqual(object.keys, ["z", "a", "m"])
        XCTAssertEqual(object["a"], "x")
        XCTAssertEqual(object["m"], .null, "a present null is not a missing member")
        XCTAssertNil(object["missing"])
        XCTAssertEqual(object.members.map(\.value), [1, "x", nil])
    }

    func testAppendKeepsDuplicatesAndSubscriptReturnsFirst() {
        var object: JSONObject = ["id": 1]
        object.append("id", 2)
        XCTAssertEqual(object.members.count, 2)
        XCTAssertEqual(object["id"], 1)
        XCTAssertEqual(object.firstDuplicateKey, "id")
        XCTAssertEqual(JSONWriter.serialize(.object(object)), #"{"id":1,"id":2}"#)
    }

    func testFirstDuplicateKeySmall() {
        XCTAssertNil(JSONObject().firstDuplicateKey)
        XCTAssertNil((["a": 1] as JSONObject).firstDuplicateKey)
        XCTAssertNil((["a": 1, "b": 2, "c": 3] as JSONObject).firstDuplicateKey)
        // The key whose *repeat* comes first wins: "b" repeats at index 2, "a" only at 3.
        XCTAssertEqual((["a": 1, "b": 2, "b": 3, "a": 4] as JSONObject).firstDuplicateKey, "b")
        // Keys that differ only by Unicode normalization are equal Swift strings.
        XCTAssertEqual((["é": 1, "e\u{301}": 2] as JSONObject).firstDuplicateKey, "e\u{301}")
    }

    func testFirstDuplicateKeyLarge() {
        var object = JSONObject()
        for i in 0..<100 { object.append("k\(i)", .number(JSONNumber(i))) }
        XCTAssertNil(object.firstDuplicateKey)
        object.members[70].key = "k3"
        object.members[50].key = "k7"
        XCTAssertEqual(object.firstDuplicateKey, "k7")
    }

    func testParsedDuplicatesAreKept() throws {
        let object = try XCTUnwrap(JSONParser.parse(#"{"a":1,"b":2,"a":3}"#).objectValue)
        XCTAssertEqual(object.keys, ["a", "b", "a"])
        XCTAssertEqual(object.firstDuplicateKey, "a")
        XCTAssertEqual(object["a"], 1)
    }

    func testEqualityIsOrderSensitive() {
        XCTAssertEqual(["a": 1, "b": 2] as JSONObject, ["a": 1, "b": 2] as JSONObject)
        XCTAssertNotEqual(["a": 1, "b": 2] as JSONObject, ["b": 2, "a": 1] as JSONObject)
    }
}
