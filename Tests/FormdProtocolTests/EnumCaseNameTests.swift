@testable import FormdProtocol
import XCTest

/// `case(named:)` finds an enum's case by its raw value as `init(rawValue:)` does, the
/// library's string equality included (canonically equivalent strings are equal).
final class EnumCaseNameTests: XCTestCase {
    enum Plain: String, CaseIterable { case become, resign, character, paragraph }
    enum Accented: String, CaseIterable { case plain = "K", accented = "é", long = "a-raw-value-past-fifteen-bytes" }

    func testAgreesWithInitRawValue() {
        let names = ["become", "resign", "character", "paragraph", "", "becom", "becomee", "Become", "K", "\u{212A}", "é",
                     "e\u{301}", "a-raw-value-past-fifteen-bytes", "a-raw-value-past-fifteen-byteS", "x",
                     String(repeating: "b", count: 15), String(repeating: "b", count: 16), "become" + "", ["be", "come"].joined()]
        for name in names {
            XCTAssertEqual(Plain.case(named: name), Plain(rawValue: name), name.debugDescription)
            XCTAssertEqual(Accented.case(named: name), Accented(rawValue: name), name.debugDescription)
        }
        // The Kelvin sign is canonically "K"; a decomposed "é" is "é".
        XCTAssertEqual(Accented.case(named: "\u{212A}"), .plain)
        XCTAssertEqual(Accented.case(named: "e\u{301}"), .accented)
    }
}
