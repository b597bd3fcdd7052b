import XCTest
@testable import FormdPattern

/// The automata all patterns keep between matches stay within `Pattern.keptBudget`: a
/// pattern whose automaton would pass it lets it go after the match and builds it again
/// on the next, answering the same. (2,000 fields, each with a 20-byte pattern that
/// compiles to 9,000 instructions, held 330 MB once each had been matched once.)
final class KeptAutomataTests: XCTestCase {
    func testAutomataKeptBetweenMatchesStayWithinTheBudget() throws {
        let before = Pattern.keptBytes
        var patterns: [Pattern] = []
        for i in 0..<400 {
            let p = try Pattern("(?:[a-z]{9}){1,999}" + (i % 2 == 0 ? "" : "x"))
            XCTAssertEqual(p.matchesWhole("abcdefghi"), i % 2 == 0)
            XCTAssertLessThanOrEqual(Pattern.keptBytes, Pattern.keptBudget)
            patterns.append(p)
        }
        XCTAssertGreaterThan(Pattern.keptBytes, Pattern.keptBudget / 2, "automata are kept while they fit")
        // One that was let go builds its automaton again and answers the same.
        let last = try XCTUnwrap(patterns.last)
        XCTAssertTrue(last.matchesWhole("abcdefghix"))
        XCTAssertFalse(last.matchesWhole("abcdefgh"))
        XCTAssertTrue(last.matchesEachCharacter(of: "") )
        patterns.removeAll()
        XCTAssertEqual(Pattern.keptBytes, before, "a pattern gives back what it kept when it goes")
    }
}
