import XCTest
@testable import FormdPattern

/// What each construct of the dialect matches, on whole texts.
final class MatchingTests: XCTestCase {
    private func check(_ source: String, matches yes: [String], not no: [String], file: StaticString = #filePath, line: UInt = #line) {
        let p: Pattern
        do { p = try Pattern(source) } catch {
            return XCTFail("\(source) refused: \(error.message)", file: file, line: line)
        }
        for t in yes { XCTAssertTrue(p.matchesWhole(t), "\(source) should match \(t.debugDescription)", file: file, line: line) }
        for t in no { XCTAssertFalse(p.matchesWhole(t), "\(source) should not match \(t.debugDescription)", file: file, line: line) }
    }

    func testLiteralsAndEscapes() {
        check("abc", matches: ["abc"], not: ["ab", "abcd", "xabc", "", "ABC"])
        check("", matches: [""], not: ["a"])
        check("a\\.b\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\\\\\/\\-", matches: ["a.b*+?()[]{}|^$\\/-"], not: ["axb*+?()[]{}|^$\\/-"])
        check("\\n\\r\\t\\f", matches: ["\n\r\t\u{C}"], not: ["\r\n\t\u{C}"])
        check("\\u{E9}\\u00E9\\xE9\\x{1F600}", matches: ["ééé😀"], not: ["e\u{301}éé😀"])
        check("-_ @", matches: ["-_ @"], not: ["-_@"])
        check("café", matches: ["café"], not: ["cafe\u{301}", "cafe"])
        check("cafe\u{301}", matches: ["cafe\u{301}"], not: ["café"])
    }

    func testDotIsOneCharacter() {
        check(".", matches: ["a", "é", "e\u{301}", "👩‍👩‍👧", "🇫🇷", "\r\n", "\n", "한"], not: ["", "ab", "\n\r", "🇫🇷🇩🇪"])
        check("a.c", matches: ["abc", "a\u{1F600}c"], not: ["ac", "abbc"])
    }

    func testClasses() {
        check("[abc]", matches: ["a", "b", "c"], not: ["d", "", "ab", "a\u{301}"])
        check("[a-cx-z]+", matches: ["abcxyz", "zz"], not: ["abcd", "w"])
        check("[^a-c]", matches: ["d", "é", "e\u{301}", "\r\n"], not: ["a", "b", ""])
        check("[-a]", matches: ["-", "a"], not: ["b"])
        check("[a-]", matches: ["-", "a"], not: ["b"])
        check("[\\]\\[\\\\\\-\\^]+", matches: ["][\\-^"], not: ["a"])
        check("[\\d\\s]+", matches: ["1 2\t3"], not: ["1a"])
        check("[\\D]", matches: ["a"], not: ["1"])
        check("[é]", matches: ["é"], not: ["e\u{301}", "e"])
        check("[e\u{301}x]", matches: ["e\u{301}", "x"], not: ["é", "e"])
        check("[\\u{41}-\\u{43}]", matches: ["A", "B", "C"], not: ["D"])
        check("[.*+?(){}|$]+", matches: [".*+?(){}|$"], not: ["a"])
        check("[ä-ö]", matches: ["ö", "ä"], not: ["a", "ø"])
    }

    func testClassEscapes() {
        check("\\d+", matches: ["0123456789"], not: ["٣", "1a", "", "¹"])
        check("\\D", matches: ["a", "٣", "e\u{301}"], not: ["5"])
        check("\\w+", matches: ["azAZ09_"], not: ["é", "a-b", "a b"])
        check("\\W", matches: ["é", "-", " ", "e\u{301}"], not: ["a", "_"])
        check("\\s", matches: [" ", "\t", "\n", "\u{B}", "\u{C}", "\r", "\r\n"], not: ["\u{A0}", "a", "\u{2003}"])
        check("\\S", matches: ["a", "\u{A0}"], not: [" ", "\r\n"])
    }

    func testUnicodeGeneralCategories() {
        check("\\p{L}+", matches: ["abcÉß漢字한"], not: ["a1", "e\u{301}", "_"])
        check("\\p{Lu}\\p{Ll}+", matches: ["Émile"], not: ["émile", "ÉMILE"])
        check("\\p{N}", matches: ["5", "٣", "Ⅻ", "½"], not: ["a"])
        check("\\p{Nd}", matches: ["5", "٣"], not: ["Ⅻ", "½"])
        check("\\P{L}", matches: ["1", "-", "e\u{301}"], not: ["a", "é"])
        check("\\p{Zs}", matches: [" ", "\u{A0}", "\u{3000}"], not: ["\t"])
        check("\\p{So}", matches: ["\u{1FAEA}"], not: ["a"])  // added in Unicode 17.0
        check("[\\p{Lu}\\d]+", matches: ["A1B2"], not: ["a1"])
        check("\\p{Cn}", matches: ["\u{50000}"], not: ["a"])
        check("\\p{M}", matches: ["\u{301}"], not: ["a"])
    }

    func testGroupsAndAlternation() {
        check("(ab)+", matches: ["ab", "abab"], not: ["", "aba"])
        check("(?:ab|cd)e", matches: ["abe", "cde"], not: ["abcde", "e"])
        check("a|b|", matches: ["a", "b", ""], not: ["ab"])
        check("()", matches: [""], not: ["a"])
        check("(|a)b", matches: ["b", "ab"], not: ["aab"])
        check("colou?r|gr(a|e)y", matches: ["color", "colour", "gray", "grey"], not: ["colr", "griy"])
    }

    func testQuantifiers() {
        check("a*", matches: ["", "a", "aaaa"], not: ["b", "aab"])
        check("a+", matches: ["a", "aaa"], not: [""])
        check("a?b", matches: ["b", "ab"], not: ["aab"])
        check("a{3}", matches: ["aaa"], not: ["aa", "aaaa"])
        check("a{2,}", matches: ["aa", "aaaaaa"], not: ["a", ""])
        check("a{2,4}", matches: ["aa", "aaa", "aaaa"], not: ["a", "aaaaa"])
        check("a{0}b", matches: ["b"], not: ["ab"])
        check("a{0,0}", matches: [""], not: ["a"])
        check("(ab){1,2}c", matches: ["abc", "ababc"], not: ["c", "abababc"])
        check("a*?b+?c??d{1,2}?", matches: ["bd", "aabbcdd"], not: ["aabbccd"])
        check("(a*)*b", matches: ["b", "aaab"], not: ["aaa"])
        check("(){3,}a", matches: ["a"], not: [""])
        check("x{1000}", matches: [String(repeating: "x", count: 1000)], not: [String(repeating: "x", count: 999)])
    }

    func testAnchorsMeanTheEndsOfTheText() {
        check("^abc$", matches: ["abc"], not: ["abcd", "xabc"])
        check("a^b", matches: [], not: ["ab", "a^b"])
        check("a$b", matches: [], not: ["ab"])
        check("(^a|b)+", matches: ["a", "ab", "abb", "b"], not: ["aa", "ba"])
        check("(a|b$)+", matches: ["a", "aab", "b"], not: ["ba", "aba"])
        check("$", matches: [""], not: ["a"])
        check("^", matches: [""], not: ["a"])
        check("$^", matches: [""], not: ["a"])
        check("a$\\n", matches: [], not: ["a\n", "a"])
        check("a$", matches: ["a"], not: ["a\n"])
    }

    func testFamiliesThatBacktrackingMatchersBlowUpOn() {
        let a = String(repeating: "a", count: 5000)
        check("(a+)+b", matches: [a + "b"], not: [a])
        check("(a|aa)+b", matches: [a + "b"], not: [a])
        check("(a*)*b", matches: [a + "b"], not: [a])
        check("([a-z]+)*[0-9]", matches: [a + "1"], not: [a + "!"])
        check("(x+x+)+y", matches: [String(repeating: "x", count: 5000) + "y"], not: [String(repeating: "x", count: 5000)])
        check("(\\w+\\s?)*!", matches: ["ab cd!"], not: [String(repeating: "ab ", count: 2000)])
        check(".*.*.*=", matches: [a + "="], not: [a])
    }

    func testInputFilterTestsEachCharacterAlone() throws {
        let p = try Pattern("[0-9]")
        XCTAssertTrue(p.matchesEachCharacter(of: "123"))
        XCTAssertTrue(p.matchesEachCharacter(of: ""))
        XCTAssertFalse(p.matchesEachCharacter(of: "12a"))
        let cluster = try Pattern(".")
        XCTAssertTrue(cluster.matchesEachCharacter(of: "e\u{301}👩‍👩‍👧\r\n"))
    }

    /// A rebuilt field, or fields sharing a preset's pattern, ask again about a text built
    /// apart (equal bytes, other storage): it is answered from the memo, not read again.
    func testTheSameTextIsReadOnceWhateverItsStorage() throws {
        let p = try Pattern("a+")
        let text = String(repeating: "a", count: 1000)
        XCTAssertTrue(p.matchesWhole(text))
        XCTAssertTrue(p.matchesWhole(String(repeating: "a", count: 999) + "a"))
        XCTAssertTrue(p.matchesWhole(String(text.utf8.map { Character(Unicode.Scalar($0)) })))
        XCTAssertEqual(p.runs, 1)
        XCTAssertFalse(p.matchesWhole(String(repeating: "a", count: 999) + "b"))
        XCTAssertFalse(p.matchesWhole(String(repeating: "a", count: 999) + "b"))
        XCTAssertEqual(p.runs, 2)
        // Canonically equivalent is not the same text: é and e + U+0301 are read each.
        let e = try Pattern(".")
        XCTAssertTrue(e.matchesWhole("é"))
        XCTAssertTrue(e.matchesWhole("e\u{301}"))
        XCTAssertEqual(e.runs, 2)
        XCTAssertTrue(p.matchesWhole(text))
        XCTAssertEqual(p.runs, 3)
    }
}
