import XCTest
@testable import FormdJSON

/// `JSONNumber`: grammar, literal preservation and conversions.
final class NumberTests: XCTestCase {
    func testValidLiterals() {
        for literal in ["0", "-0", "1", "-12", "1.5e3", "1E-7", "0.0", "-0.0e-0", "1e+2", "10", "99.99",
                        "123456789012345678901234567890", "0.000001", "1e400", "-1e-400"] {
            XCTAssertEqual(JSONNumber(literal: literal)?.literal, literal, literal)
        }
    }

    func testInvalidLiterals() {
        for literal in ["", "-", "01", "-01", "+1", "1.", ".1", "1e", "1e+", "1E-", " 1", "1 ", "NaN", "Infinity",
                        "-Infinity", "0x1", "1.0.0", "--1", "1e5.0", "1,0", "١", "1_000", "0.e1", "\u{0}1"] {
            XCTAssertNil(JSONNumber(literal: literal), literal.debugDescription)
        }
    }

    func testLiteralIsPreservedThroughParseAndWrite() throws {
        let text = "[1.50,1E3,-0,0.000,12345678901234567890123,1e-07,2.5E+10,-0.0]"
        let value = try JSONParser.parse(text)
        XCTAssertEqual(JSONWriter.serialize(value), text)
        XCTAssertEqual(value.arrayValue?.first?.numberValue?.literal, "1.50")
    }

    func testIntValue() {
        let cases: [(String, Int?)] = [
            ("0", 0), ("-0", 0), ("17", 17), ("-17", -17), ("9", 9),
            ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min),
            ("9223372036854775808", nil), ("-9223372036854775809", nil),
            ("100000000000000000000", nil), ("123456789012345678901234567890", nil),
            ("1.0", nil), ("1e2", nil), ("1E2", nil), ("0.5", nil), ("-0.0", nil), ("10e0", nil),
        ]
        for (literal, expected) in cases {
            XCTAssertEqual(JSONNumber(literal: literal)?.intValue, expected, literal)
        }
    }

    func testDoubleValue() throws {
        XCTAssertEqual(JSONNumber(literal: "1.5e3")?.doubleValue, 1500)
        XCTAssertEqual(JSONNumber(literal: "17")?.doubleValue, 17)
        XCTAssertEqual(JSONNumber(literal: "0.1")?.doubleValue, 0.1)
        XCTAssertEqual(JSONNumber(literal: "100000000000000000000")?.doubleValue, 1e20)
        let negativeZero = try XCTUnwrap(JSONNumber(literal: "-0")?.doubleValue)
        XCTAssertEqual(negativeZero, 0)
        XCTAssertEqual(negativeZero.sign, .minus, "-0 keeps its sign")
        XCTAssertNil(JSONNumber(literal: "1e400")?.doubleValue, "overflow is not finite")
        XCTAssertNil(JSONNumber(literal: "-1e400")?.doubleValue)
        XCTAssertEqual(JSONNumber(literal: "1e-400")?.doubleValue, 0, "underflow rounds to zero")
        XCTAssertEqual(JSONNumber(literal: "1.7976931348623157e308")?.doubleValue, .greatestFiniteMagnitude)
    }

    func testInitFromInt() {
        XCTAssertEqual(JSONNumber(42).literal, "42")
        XCTAssertEqual(JSONNumber(-7).literal, "-7")
        XCTAssertEqual(JSONNumber(0).literal, "0")
        XCTAssertEqual(JSONNumber(Int.min).literal, "-9223372036854775808")
        XCTAssertEqual(JSONNumber(Int.min).intValue, Int.min)
        XCTAssertEqual(JSONNumber(Int.max).intValue, Int.max)
    }

    func testInitFromDoubleGivesValidShortestRoundTripLiterals() {
        XCTAssertEqual(JSONNumber(1.0).literal, "1.0")
        XCTAssertEqual(JSONNumber(0.1).literal, "0.1")
        XCTAssertEqual(JSONNumber(-0.0).literal, "-0.0")
        XCTAssertEqual(JSONNumber(1e20).literal, "1e+20")
        XCTAssertEqual(JSONNumber(1e-5).literal, "1e-05")
        XCTAssertNil(JSONNumber(1.0).intValue, "a Double-made number is not an integer literal")

        var samples: [Double] = [0, -0.0, 1, -1, 0.1, 1.0 / 3, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .greatestFiniteMagnitude,
                                 -.greatestFiniteMagnitude, .leastNormalMagnitude, 123456789.125, 1e16, 1e-7, 2.5e-300]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            samples.append(Double(bitPattern: generator.next()))
        }
        for d in samples where d.isFinite {
            let number = JSONNumber(d)
            XCTAssertNotNil(JSONNumber(literal: number.literal), "\(d) gave invalid JSON \(number.literal)")
            XCTAssertEqual(number.doubleValue, d, number.literal)
            XCTAssertEqual(number.doubleValue?.sign, d.sign, number.literal)
        }
    }

    func testEqualityIsLexical() {
        XCTAssertEqual(JSONNumber(literal: "1"), JSONNumber(1))
        XCTAssertNotEqual(JSONNumber(literal: "1"), JSONNumber(literal: "1.0"))
        XCTAssertNotEqual(JSONNumber(literal: "1e2"), JSONNumber(literal: "100"))
        XCTAssertEqual(JSONNumber(literal: "1e2")?.doubleValue, JSONNumber(literal: "100")?.doubleValue)
    }

    func testDescriptionIsTheLiteral() {
        XCTAssertEqual("\(JSONNumber(literal: "1.50")!)", "1.50")
    }
}
