import FormdCore
import FormdJSON
@testable import FormdProtocol
import FormdTestSupport
import XCTest

/// A field spec's members are put in their keys' slots in one pass (`SpecSlots`); the
/// options of `configureField` are looked up by name in a checked `ParamsReader`. Both must
/// read the same options, or fail with the same message, for any object.
final class SpecSlotsTests: XCTestCase {

    func testSlotsReadAsTheReaderLooksUp() throws {
        var rng = SplitMix64(seed: 0x5107)
        func pick<T>(_ items: [T]) -> T { items[rng.next(below: items.count)] }
        let keys = FieldSpecDecoder.optionKeys + ["id", "configuration", "bogus", "labels", "enablesReturn\u{212A}eyAutomatically"]
        let values = ["\"x\"", "\"héllo\"", "null", "true", "false", "0", "12", "-1", "1.5", "[]", "[\"a\",1]",
                      "[\"copy\",\"paste\"]", "[\"fly\"]", "{}", "{\"a\":1,\"a\":2}", "{\"k\":[1,{\"v\":2}]}",
                      "\"[a-z]+\"", "\"(\"", "\"next\"", "\"never\"", "\"moveBack\""]
        var read = 0, refused = 0
        for _ in 0..<5_000 {
            var members: [String] = []
            for _ in 0..<rng.next(below: 5) {
                members.append("\"\(pick(keys))\":\(pick(values))")
            }
            let text = "{" + members.joined(separator: ",") + "}"
            guard case .object(let object) = try JSONParser.parse(text) else { return XCTFail(text) }
            let slots = Result { () throws(ProtocolError) in try FieldSpecDecoder.options(object, path: "p") }
            let reader = Result { () throws(ProtocolError) in
                try FieldSpecDecoder.options(ParamsReader(object, path: "p", allowed: FieldSpecDecoder.optionKeys))
            }
            XCTAssertEqual(slots, reader, text)
            if case .failure = slots { refused += 1 } else { read += 1 }
        }
        XCTAssertGreaterThan(read, 500)
        XCTAssertGreaterThan(refused, 500)
    }
}

/// `SpecKey.named` finds a key as the dictionary of names does.
final class SpecKeyNameTests: XCTestCase {
    func testAgreesWithTheDictionary() {
        var names = SpecKey.allCases.map(\.name)
        names += names.map { $0 + "x" } + names.map { String($0.dropLast()) } + names.map { $0.uppercased() }
        names += ["", "i", "idd", "te\u{301}xt", "\u{212A}", "text ", " text", "canBecomeFirstResponder2", "labél"]
        for name in names {
            XCTAssertEqual(SpecKey.named(name), SpecKey.byName[name], name.debugDescription)
        }
        for key in SpecKey.allCases { XCTAssertEqual(SpecKey.named(key.name), key) }
    }
}
