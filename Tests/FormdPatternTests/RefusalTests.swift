import XCTest
@testable import FormdPattern

/// Every construct outside the dialect is refused, naming it and its offset.
final class RefusalTests: XCTestCase {
    private func assertRefused(_ source: String, offset: Int, _ words: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            _ = try Pattern(source)
            XCTFail("\(source) was accepted", file: file, line: line)
        } catch {
            XCTAssertEqual(error.offset, offset, "\(source): \(error.message)", file: file, line: line)
            XCTAssertTrue(error.message.contains(words), "\(source): \(error.message)", file: file, line: line)
            XCTAssertTrue(error.message.contains("offset \(offset)"), "\(source): \(error.message)", file: file, line: line)
        }
    }

    func testBackreferencesAndLookaroundAreRefused() {
        assertRefused("(a)\\1", offset: 3, "backreference \\1 at offset 3 is not supported")
        assertRefused("(?<n>a)\\k<n>", offset: 0, "named group (?<")
        assertRefused("a\\k<n>", offset: 1, "named backreference \\k")
        assertRefused("(?P<n>a)", offset: 0, "named group (?P<")
        assertRefused("(?P=n)", offset: 0, "named backreference (?P=")
        assertRefused("x(?=a)", offset: 1, "lookahead (?=")
        assertRefused("(?!a)", offset: 0, "negative lookahead (?!")
        assertRefused("ab(?<=a)", offset: 2, "lookbehind (?<=")
        assertRefused("(?<!a)", offset: 0, "negative lookbehind (?<!")
        assertRefused("(?>a+)", offset: 0, "atomic group (?>")
        assertRefused("a*+", offset: 1, "possessive quantifier *+")
        assertRefused("a{2}+", offset: 1, "possessive quantifier {2}+")
        assertRefused("(?i)a", offset: 0, "inline flags")
        assertRefused("(?#x)", offset: 0, "comment (?#")
        assertRefused("(?|a)", offset: 0, "branch reset (?|")
        assertRefused("(?(1)a)", offset: 0, "conditional (?(")
        assertRefused("(?R)", offset: 0, "recursion (?R")
        assertRefused("(?1)", offset: 0, "subroutine call (?1")
        assertRefused("\\g1", offset: 0, "\\g")
    }

    func testEscapesOutsideTheDialectAreRefused() {
        assertRefused("a\\b", offset: 1, "word boundary \\b")
        assertRefused("\\B", offset: 0, "\\B")
        assertRefused("\\Aa", offset: 0, "\\A")
        assertRefused("a\\z", offset: 1, "\\z")
        assertRefused("a\\Z", offset: 1, "\\Z")
        assertRefused("\\G", offset: 0, "\\G")
        assertRefused("a\\K", offset: 1, "\\K")
        assertRefused("\\X", offset: 0, "grapheme cluster escape \\X")
        assertRefused("\\R", offset: 0, "\\R")
        assertRefused("\\Qa\\E", offset: 0, "quoting")
        assertRefused("\\cA", offset: 0, "control escape \\c")
        assertRefused("\\0", offset: 0, "\\0")
        assertRefused("\\v", offset: 0, "escape \\v")
        assertRefused("\\h", offset: 0, "escape \\h")
        assertRefused("\\e", offset: 0, "escape \\e")
        assertRefused("\\é", offset: 0, "escape \\é")
        assertRefused("[\\b]", offset: 1, "backspace escape")
        assertRefused("ab\\", offset: 2, "lone \\")
        assertRefused("\\p{Han}", offset: 0, "Unicode property \\p{Han}")
        assertRefused("\\p{Letter}", offset: 0, "Unicode property \\p{Letter}")
        assertRefused("\\pL", offset: 0, "braced name")
        assertRefused("\\p{L", offset: 0, "not closed")
        assertRefused("\\u12", offset: 0, "not a code point")
        assertRefused("\\u{}", offset: 0, "not a code point")
        assertRefused("\\u{1234567}", offset: 0, "not a code point")
        assertRefused("\\u{D800}", offset: 0, "not a Unicode scalar value")
        assertRefused("\\u{110000}", offset: 0, "not a Unicode scalar value")
    }

    func testClassesOutsideTheDialectAreRefused() {
        assertRefused("[[:alpha:]]", offset: 1, "[ inside a class")
        assertRefused("[a[b]]", offset: 2, "[ inside a class")
        assertRefused("[a&&b]", offset: 2, "class intersection &&")
        assertRefused("[a--b]", offset: 2, "class subtraction --")
        assertRefused("[a~~b]", offset: 2, "symmetric difference ~~")
        assertRefused("[]", offset: 0, "empty character class")
        assertRefused("[^]", offset: 0, "empty character class")
        assertRefused("x[ab", offset: 1, "character class opened at offset 1 is not closed")
        assertRefused("[z-a]", offset: 1, "range z-a at offset 1 is out of order")
        assertRefused("[\\d-z]", offset: 1, "range \\d-z at offset 1")
        assertRefused("[a-\\w]", offset: 1, "range a-\\w at offset 1")
        assertRefused("[a-b-c]", offset: 4, "- at offset 4")
        assertRefused("[a-", offset: 0, "character class opened at offset 0 is not closed")
        assertRefused("[a-b", offset: 0, "character class opened at offset 0 is not closed")
        assertRefused("[a\\", offset: 2, "lone \\")
    }

    func testStructureMistakesAreRefused() {
        assertRefused("(ab", offset: 0, "group opened at offset 0 is not closed")
        assertRefused("a(b(c)", offset: 1, "group opened at offset 1 is not closed")
        assertRefused("ab)", offset: 2, "unmatched ) at offset 2")
        assertRefused("*a", offset: 0, "quantifier * at offset 0 has nothing to repeat")
        assertRefused("a|+", offset: 2, "nothing to repeat")
        assertRefused("(?)", offset: 0, "inline flags or group modifier")
        assertRefused("({2})", offset: 1, "quantifier {2} at offset 1 has nothing to repeat")
        assertRefused("^*", offset: 1, "follows an anchor")
        assertRefused("a$?", offset: 2, "follows an anchor")
        assertRefused("a**", offset: 2, "quantifier * at offset 2 follows another quantifier")
        assertRefused("a{2}{3}", offset: 4, "follows another quantifier")
        assertRefused("a{", offset: 1, "{ at offset 1 does not start a repetition")
        assertRefused("a{,3}", offset: 1, "does not start a repetition")
        assertRefused("a{x}", offset: 1, "does not start a repetition")
        assertRefused("{", offset: 0, "does not start a repetition")
        assertRefused("a}", offset: 1, "unescaped } at offset 1")
        assertRefused("a]", offset: 1, "unescaped ] at offset 1")
        assertRefused("a{1001}", offset: 1, "counts above 1000")
        assertRefused("a{2,1001}", offset: 1, "counts above 1000")
        assertRefused("a{99999999999999999999}", offset: 1, "counts above 1000")
        assertRefused("a{3,2}", offset: 1, "minimum above its maximum")
        assertRefused("(\u{301}", offset: 0, "cannot take a combining mark")
        assertRefused(String(repeating: "(", count: 101) + "a" + String(repeating: ")", count: 101), offset: 100, "nests deeper than 100")
    }

    func testOffsetsCountCharactersNotScalars() {
        // "é" decomposed is one character of two scalars; the "(?=" after it is at 1.
        assertRefused("e\u{301}(?=a)", offset: 1, "lookahead")
        assertRefused("👩‍👩‍👧(?!a)", offset: 1, "negative lookahead")
    }
}
