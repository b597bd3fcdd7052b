import XCTest
@testable import FormdProtocol

/// Unknown methods and keys suggest the known name one or two edits away.
final class NameSuggestionTests: XCTestCase {
    func testNearNamesAreSuggested() {
        let methods = MethodRegistry.names
        XCTAssertEqual(NameSuggestion.nearest(to: "settext", in: methods), "setText")
        XCTAssertEqual(NameSuggestion.nearest(to: "insertTxt", in: methods), "insertText")
        XCTAssertEqual(NameSuggestion.nearest(to: "udno", in: methods), "undo")
        XCTAssertEqual(NameSuggestion.nearest(to: "lable", in: FieldSpecDecoder.optionKeys), "label")
        XCTAssertEqual(NameSuggestion.nearest(to: "paternHint", in: FieldSpecDecoder.optionKeys), "patternHint")
        XCTAssertEqual(NameSuggestion.nearest(to: "maxlen", in: FieldSpecDecoder.optionKeys), nil)
        XCTAssertEqual(NameSuggestion.nearest(to: "colour", in: FieldSpecDecoder.optionKeys), nil)
        XCTAssertEqual(NameSuggestion.nearest(to: String(repeating: "x", count: 100_000), in: methods), nil)
        XCTAssertEqual(NameSuggestion.nearest(to: "", in: ["ab", "abc"]), "ab")
    }

    func testTheMessagesCarryTheSuggestion() {
        XCTAssertTrue(MethodRegistry.unknownMethod("settext").message.hasPrefix("unknown method \"settext\" (did you mean \"setText\"?); formd's methods are: "),
                      MethodRegistry.unknownMethod("settext").message)
        XCTAssertTrue(MethodRegistry.unknownMethod("frobnicate").message.hasPrefix("unknown method \"frobnicate\"; formd's methods are: "))
    }
}
