@testable import FormdCore
import FormdJSON
@testable import FormdProtocol
import XCTest

/// The registries: one entry per method and one name per event, and everything that lists
/// or decodes them reads them.
final class MethodRegistryTests: XCTestCase {
    func testEachMethodIsListedOnceAndFoundByName() {
        XCTAssertEqual(Set(MethodRegistry.names).count, MethodRegistry.names.count)
        for entry in MethodRegistry.entries {
            XCTAssertEqual(MethodRegistry.entry(named: entry.name)?.name, entry.name)
            XCTAssertEqual(Set(entry.keys).count, entry.keys.count, entry.name)
            XCTAssertTrue(entry.keys.contains("form"), "\(entry.name) takes form like every method")
        }
        XCTAssertNil(MethodRegistry.entry(named: "nosuch"))
    }

    func testTheKeystrokeDecodersMethodsAreRegistryEntriesWithTheSameKeys() {
        for keystroke in KeystrokeMethod.allCases {
            XCTAssertEqual(MethodRegistry.entry(named: keystroke.name)?.keys, keystroke.keyNames)
        }
    }

    func testInitializeListsTheRegistries() throws {
        var w = JSONWriter()
        ServerInfo.writeInitializeResult(positionEncoding: .character, textSync: .full, framing: .ndjson, to: &w)
        let result = try JSONParser.parse(w.bytes)
        let capabilities = result.objectValue?["capabilities"]?.objectValue
        XCTAssertEqual(capabilities?["methods"], .array(MethodRegistry.names.map { .string($0) }))
        XCTAssertEqual(capabilities?["events"], .array(EventName.allCases.map { .string($0.name) }))
        XCTAssertEqual(EventName.formEvents.count, EventName.allCases.count - 2)
    }

    func testAMethodsEntryDecidesItsKeysAndItsCall() throws {
        let select = try JSONParser.parse(#"{"field":"a","start":1,"end":2}"#).objectValue!
        XCTAssertEqual(try MethodRegistry.decode(method: "select", params: select), .form("default", .select(field: "a", start: 1, end: 2)))
        let bad = try JSONParser.parse(#"{"field":"a","bogus":1}"#).objectValue!
        XCTAssertThrowsError(try MethodRegistry.decode(method: "undo", params: bad)) { error in
            XCTAssertEqual((error as? ProtocolError)?.message, #"unknown key "bogus" in undo params; allowed keys: form, field"#)
        }
        XCTAssertThrowsError(try MethodRegistry.decode(method: "nosuch", params: JSONObject())) { error in
            XCTAssertEqual((error as? ProtocolError)?.code, .methodNotFound)
        }
    }

    func testEachFormEventIsWrittenUnderItsName() {
        let record = EventRecord(form: "default", seq: 1, event: .focusChanged(from: nil, to: "a"))
        var w = JSONWriter()
        EventEncoder.write(record, to: &w)
        XCTAssertTrue(String(decoding: w.bytes, as: UTF8.self).contains(#""method":"\#(EventName(record.event).name)""#))
        XCTAssertEqual(EventName(record.event), .focusChanged)
    }
}
