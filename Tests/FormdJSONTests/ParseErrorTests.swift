import XCTest
@testable import FormdJSON

/// Every error kind, with the byte offset it should point at.
final class ParseErrorTests: XCTestCase {
    func testEmpty() {
        assertParseError("", .empty, at: 0)
        assertParseError("   \n\t", .empty, at: 5)
        XCTAssertThrowsError(try JSONParser.parse(UnsafeRawBufferPointer(start: nil, count: 0))) { error in
            XCTAssertEqual((error as? JSONParseError)?.kind, .empty)
        }
    }

    func testErrorsAreComparableValues() {
        let error = parseError("[1,]")
        XCTAssertEqual(error, JSONParseError(kind: .syntax, offset: 3, message: "expected a value at byte 3"))
        XCTAssertEqual(error.map { "\($0)" }, "expected a value at byte 3")
        XCTAssertNotEqual(JSONParseError.Kind.depthExceeded(limit: 1), .depthExceeded(limit: 2))
    }

    func testTrailingContent() {
        assertParseError("{} x", .trailingContent, at: 3)
        assertParseError("1 2", .trailingContent, at: 2)
        assertParseError("[1]]", .trailingContent, at: 3)
        assertParseError("01", .trailingContent, at: 1)
        assertParseError("\"a\"\"b\"", .trailingContent, at: 3)
        assertParseError("nullx", .trailingContent, at: 4)
    }

    func testSyntaxErrorsPointAtTheOffendingByte() {
        assertParseError("[1,]", .syntax, at: 3)
        assertParseError("[1 2]", .syntax, at: 3)
        assertParseError("[01]", .syntax, at: 2)
        assertParseError("[", .syntax, at: 1)
        assertParseError("[1", .syntax, at: 2)
        assertParseError("{", .syntax, at: 1)
        assertParseError(#"{"a":1 "b":2}"#, .syntax, at: 7)
        assertParseError(#"{"a" 1}"#, .syntax, at: 5)
        assertParseError(#"{1:2}"#, .syntax, at: 1)
        assertParseError(#"{"a":1,}"#, .syntax, at: 7)
        assertParseError(#"{"a":}"#, .syntax, at: 5)
        assertParseError(#"{"a""#, .syntax, at: 4)
        assertParseError("]", .syntax, at: 0)
        assertParseError("tru", .syntax, at: 3)
        assertParseError("trux", .syntax, at: 3)
        assertParseError("nul", .syntax, at: 3)
        assertParseError("True", .syntax, at: 0)
        assertParseError("'a'", .syntax, at: 0)
    }

    func testSyntaxErrorMessagesNameTheExpectation() {
        XCTAssertEqual(parseError(#"{"a":1 "b":2}"#)?.message, "expected ',' or '}' after object member at byte 7")
        XCTAssertEqual(parseError("[1 2]")?.message, "expected ',' or ']' after array element at byte 3")
        XCTAssertEqual(parseError(#"{"a" 1}"#)?.message, "expected ':' after object key at byte 5")
    }

    func testInvalidNumbers() {
        assertParseError("-", .syntax, at: 1)
        assertParseError("-a", .syntax, at: 1)
        assertParseError("1.", .syntax, at: 2)
        assertParseError("1.e5", .syntax, at: 2)
        assertParseError("1e", .syntax, at: 2)
        assertParseError("1e+", .syntax, at: 3)
        assertParseError(".5", .syntax, at: 0)
        assertParseError("+1", .syntax, at: 0)
        assertParseError("[NaN]", .syntax, at: 1)
        assertParseError("[Infinity]", .syntax, at: 1)
        assertParseError("0x10", .trailingContent, at: 1)
    }

    func testStringSyntaxErrors() {
        assertParseError(#""abc"#, .syntax, at: 4)
        assertParseError(#"["abc"#, .syntax, at: 5)
        assertParseError(#""\x""#, .syntax, at: 1)
        assertParseError(#""\u12""#, .syntax, at: 5)
        assertParseError(#""\u12"#, .syntax, at: 5)
        assertParseError(#""\uZZZZ""#, .syntax, at: 3)
        assertParseError(#""\"#, .syntax, at: 1)
        XCTAssertEqual(parseError(#""abc"#)?.message, "unterminated string starting at byte 0 at byte 4")
    }

    func testControlCharacters() {
        assertParseError("\"a\nb\"", .controlCharacter, at: 2)
        assertParseError("\"\t\"", .controlCharacter, at: 1)
        assertParseError([0x22, 0x00, 0x22], .controlCharacter, at: 1)
        assertParseError([0x22, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x1F, 0x22], .controlCharacter, at: 10)
        assertParseError("{\"k\u{7}\":1}", .controlCharacter, at: 3)
        // DEL (0x7F) is not a control character in RFC 8259's sense.
        XCTAssertEqual(parseOK("\"\u{7F}\""), .string("\u{7F}"))
    }

    func testInvalidUTF8() {
        let q: UInt8 = 0x22
        assertParseError([q, 0xC3, q], .invalidUTF8, at: 1)                 // truncated 2-byte
        assertParseError([q, 0x61, 0xC3], .invalidUTF8, at: 2)              // truncated at end of input
        assertParseError([q, 0xC0, 0x80, q], .invalidUTF8, at: 1)           // overlong NUL
        assertParseError([q, 0xC1, 0xBF, q], .invalidUTF8, at: 1)           // overlong
        assertParseError([q, 0xE0, 0x80, 0xAF, q], .invalidUTF8, at: 1)     // overlong 3-byte
        assertParseError([q, 0xF0, 0x80, 0x80, 0xAF, q], .invalidUTF8, at: 1) // overlong 4-byte
        assertParseError([q, 0xED, 0xA0, 0x80, q], .invalidUTF8, at: 1)     // UTF-8-encoded surrogate U+D800
        assertParseError([q, 0xED, 0xBF, 0xBF, q], .invalidUTF8, at: 1)     // U+DFFF
        assertParseError([q, 0xF4, 0x90, 0x80, 0x80, q], .invalidUTF8, at: 1) // > U+10FFFF
        assertParseError([q, 0xF5, 0x80, 0x80, 0x80, q], .invalidUTF8, at: 1) // lead > F4
        assertParseError([q, 0xFF, q], .invalidUTF8, at: 1)
        assertParseError([q, 0x80, q], .invalidUTF8, at: 1)                 // lone continuation
        assertParseError([q, 0xE2, 0x82, q], .invalidUTF8, at: 1)           // truncated 3-byte
        assertParseError([q, 0xF0, 0x9F, 0x98, q], .invalidUTF8, at: 1)     // truncated 4-byte
        assertParseError([q, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0xE9, q], .invalidUTF8, at: 9) // Latin-1 é after a full word
        // In an escaped string too (slow path).
        assertParseError([q, 0x5C, 0x6E, 0xC3, q], .invalidUTF8, at: 3)
        // Boundary values that are valid.
        XCTAssertEqual(parseOK(String(decoding: [q, 0xED, 0x9F, 0xBF, q], as: UTF8.self)), .string("\u{D7FF}"))
        XCTAssertEqual(parseOK(String(decoding: [q, 0xEE, 0x80, 0x80, q], as: UTF8.self)), .string("\u{E000}"))
        XCTAssertEqual(parseOK(String(decoding: [q, 0xF4, 0x8F, 0xBF, 0xBF, q], as: UTF8.self)), .string("\u{10FFFF}"))
    }

    func testNonUTF8OutsideStringsIsSyntax() {
        assertParseError([0xFF], .syntax, at: 0)
        assertParseError([0xEF, 0xBB, 0xBF, 0x7B, 0x7D], .syntax, at: 0)  // UTF-8 BOM is not JSON whitespace
        assertParseError([0x5B, 0xC3, 0xA9, 0x5D], .syntax, at: 1)
    }

    func testNULOutsideStrings() {
        assertParseError([0x00], .syntax, at: 0)
        assertParseError([0x5B, 0x00, 0x5D], .syntax, at: 1)
        assertParseError([0x5B, 0x31, 0x00, 0x5D], .syntax, at: 2)
        assertParseError([0x7B, 0x00], .syntax, at: 1)
        // After a complete value, a NUL is trailing content (e.g. a C string terminator).
        assertParseError([0x31, 0x00], .trailingContent, at: 1)
        XCTAssertEqual(parseError([0x31, 0x00])?.message, "unexpected NUL byte after the JSON value at byte 1")
    }

    func testLoneSurrogates() {
        assertParseError(#""\uD800""#, .loneSurrogate, at: 1)
        assertParseError(#""\uD800x""#, .loneSurrogate, at: 1)
        assertParseError(#""\uD800\n""#, .loneSurrogate, at: 1)
        assertParseError(#""\uD800\u0041""#, .loneSurrogate, at: 1)
        assertParseError(#""\uD800\uD800""#, .loneSurrogate, at: 1)
        assertParseError(#""\uDC00""#, .loneSurrogate, at: 1)
        assertParseError(#""ab\uDFFF\uD800""#, .loneSurrogate, at: 3)
        assertParseError(#""\uD83D"#, .loneSurrogate, at: 1)
        XCTAssertEqual(parseError(#""\uD800""#)?.message, "lone surrogate \\uD800 in string at byte 1")
        // A broken hex escape where the low surrogate should be is a syntax error at that digit.
        assertParseError(#""\uD800\u12""#, .syntax, at: 11)
    }

    func testDepthLimitExactlyAtAndOnePast() throws {
        for limit in [1, 2, 5, JSONParser.defaultMaxDepth] {
            let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
            XCTAssertNotNil(parseOK(atLimit, maxDepth: limit), "depth \(limit) must be accepted with maxDepth \(limit)")
            let pastLimit = "[" + atLimit + "]"
            assertParseError(pastLimit, .depthExceeded(limit: limit), at: limit, maxDepth: limit)
        }
        // Objects count too, mixed with arrays.
        let mixed = #"{"a":[{"b":[1]}]}"#  // depth 4
        XCTAssertNotNil(parseOK(mixed, maxDepth: 4))
        assertParseError(mixed, .depthExceeded(limit: 3), at: 11, maxDepth: 3)
        // Scalars have no depth.
        XCTAssertEqual(parseOK("1", maxDepth: 0), 1)
        assertParseError("[]", .depthExceeded(limit: 0), at: 0, maxDepth: 0)
        XCTAssertEqual(parseError("[[1]]", maxDepth: 1)?.message, "nesting exceeds the maximum depth of 1 at byte 1")
    }

    func testDefaultDepthLimit() {
        let limit = JSONParser.defaultMaxDepth
        XCTAssertEqual(limit, 64)
        let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        XCTAssertNotNil(parseOK(atLimit))
        assertParseError("[" + atLimit + "]", .depthExceeded(limit: limit), at: limit)
    }

    func testHundredThousandOpeningBracketsAreRejectedWithoutCrashing() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        assertParseError(deep, .depthExceeded(limit: 64), at: 64)
        let deepObjects = Array(String(repeating: #"{"a":"#, count: 100_000).utf8)
        assertParseError(deepObjects, .depthExceeded(limit: 64), at: 64 * 5)
    }

    func testVeryDeepNestingWithAGenerousLimitUsesNoRecursion() {
        // The parser is iterative, so even a limit far beyond any sane stack depth is safe.
        let depth = 200_000
        let text = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        var value: JSONValue? = parseOK(text, maxDepth: depth)
        XCTAssertNotNil(value)
        // Unnest iteratively so that tearing the tree down does not recurse in the test either.
        var levels = 0
        while case .array(let elements)? = value, let first = elements.first {
            value = first
            levels += 1
        }
        XCTAssertEqual(levels, depth)
        XCTAssertEqual(value, 1)
        assertParseError(text, .depthExceeded(limit: depth - 1), at: depth - 1, maxDepth: depth - 1)
    }
}
