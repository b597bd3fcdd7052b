import XCTest
@testable import FormdCore

/// `moveCaret {field?, to, extend?}`: moves the caret, or with `extend` the moving end of
/// the selection. Without `extend`, left and right first collapse a selection to its
/// start or end. A move that goes nowhere reports nothing.
final class MoveCaretTests: XCTestCase {
    private let text = "hello big world"   // words at 0..<5, 6..<9, 10..<15

    private func move(_ h: inout FormHarness, _ to: CaretTarget, extend: Bool = false, _ expected: TextRange,
                      file: StaticString = #filePath, line: UInt = #line) {
        h.send(.moveCaret(field: nil, to: to, extend: extend), .selection(expected),
               events: [.selectionChanged(field: "a", selection: expected)], state: { $0["a"].selection = expected },
               file: file, line: line)
    }

    private func stay(_ h: inout FormHarness, _ to: CaretTarget, extend: Bool = false, _ expected: TextRange,
                      file: StaticString = #filePath, line: UInt = #line) {
        h.send(.moveCaret(field: nil, to: to, extend: extend), .selection(expected), events: [], file: file, line: line)
    }

    private func harness() -> FormHarness {
        var h = FormHarness(fields: [field("a") { $0.text = text }])
        h.focus("a")
        return h
    }

    func testStartAndEnd() {
        var h = harness()
        stay(&h, .end, .caret(15))
        move(&h, .start, .caret(0))
        stay(&h, .start, .caret(0))
        move(&h, .end, .caret(15))
    }

    func testLeftAndRightMoveOneCharacterAndStopAtTheEnds() {
        var h = FormHarness(fields: [field("a") { $0.text = "a👍🏽e\u{301}" }])
        h.focus("a")
        stay(&h, .right, .caret(3))
        move(&h, .left, .caret(2))
        move(&h, .left, .caret(1))
        move(&h, .left, .caret(0))
        stay(&h, .left, .caret(0))
        move(&h, .right, .caret(1))
    }

    func testWordLeftAndWordRightStopAtWordStartsAndEnds() {
        var h = harness()
        move(&h, .wordLeft, .caret(10))
        move(&h, .wordLeft, .caret(6))
        move(&h, .left, .caret(5))
        // From just after a word, wordLeft goes to that word's start.
        move(&h, .wordLeft, .caret(0))
        stay(&h, .wordLeft, .caret(0))
        move(&h, .wordRight, .caret(5))
        move(&h, .wordRight, .caret(9))
        move(&h, .wordRight, .caret(15))
        stay(&h, .wordRight, .caret(15))
    }

    func testExtendMovesOnlyTheMovingEndAndMayCrossTheFixedOne() {
        var h = harness()
        move(&h, .wordLeft, extend: true, .backward(10, 15))
        move(&h, .wordLeft, extend: true, .backward(6, 15))
        move(&h, .right, extend: true, .backward(7, 15))
        move(&h, .start, extend: true, .backward(0, 15))
        // Back onto the fixed end: a caret again.
        move(&h, .end, extend: true, .caret(15))
        move(&h, .start, .caret(0))
        move(&h, .wordRight, extend: true, TextRange(0, 5))
        move(&h, .right, extend: true, TextRange(0, 6))
        move(&h, .end, extend: true, TextRange(0, 15))
        move(&h, .left, extend: true, TextRange(0, 14))
    }

    func testExtendingPastTheFixedEndSelectsOnItsOtherSide() {
        var h = harness()
        h.send(.select(field: nil, start: 2, end: 4), .selection(TextRange(2, 4)),
               events: [.selectionChanged(field: "a", selection: TextRange(2, 4))], state: { $0["a"].selection = TextRange(2, 4) })
        move(&h, .left, extend: true, TextRange(2, 3))
        move(&h, .left, extend: true, .caret(2))
        move(&h, .left, extend: true, .backward(1, 2))
        move(&h, .wordRight, extend: true, TextRange(2, 5))
    }

    func testWithoutExtendLeftAndRightCollapseASelectionToItsEnds() {
        var h = harness()
        for (start, end) in [(6, 9), (9, 6)] {
            let selected = TextRange(6, 9, backward: start > end)
            h.send(.select(field: nil, start: start, end: end), .selection(selected),
                   events: [.selectionChanged(field: "a", selection: selected)], state: { $0["a"].selection = selected })
            move(&h, .left, .caret(6))
            h.send(.select(field: nil, start: start, end: end), .selection(selected),
                   events: [.selectionChanged(field: "a", selection: selected)], state: { $0["a"].selection = selected })
            move(&h, .right, .caret(9))
        }
        h.send(.select(field: nil, start: 6, end: 9), .selection(TextRange(6, 9)),
               events: [.selectionChanged(field: "a", selection: TextRange(6, 9))], state: { $0["a"].selection = TextRange(6, 9) })
        move(&h, .start, .caret(0))
        h.send(.select(field: nil, start: 6, end: 9), .selection(TextRange(6, 9)),
               events: [.selectionChanged(field: "a", selection: TextRange(6, 9))], state: { $0["a"].selection = TextRange(6, 9) })
        move(&h, .end, .caret(15))
    }

    /// A masked field is one word: word moves go to its ends, so they reveal nothing.
    func testAMaskedFieldIsOneWord() {
        var h = FormHarness(fields: [field("a", ["password"]) { $0.text = text }])
        h.focus("a")
        move(&h, .left, .caret(14))
        move(&h, .wordLeft, .caret(0))
        move(&h, .right, .caret(1))
        move(&h, .wordRight, .caret(15))
        move(&h, .wordLeft, extend: true, .backward(0, 15))
    }

    func testANamedFieldMovesWithoutTakingFocus() {
        var h = FormHarness(fields: [field("a"), field("b") { $0.text = "xy" }])
        h.focus("a")
        h.send(.moveCaret(field: "b", to: .start, extend: false), .selection(.caret(0)),
               events: [.selectionChanged(field: "b", selection: .caret(0))], state: { $0["b"].selection = .caret(0) })
    }

    func testNoFieldAndNoFirstResponderOrAnUnknownFieldIsAnError() {
        var h = FormHarness(fields: plainFields("a"))
        h.sendFailing(.moveCaret(field: nil, to: .end, extend: false),
                      throws: .invalidParams("no field given and form \"default\" has no first responder; pass \"field\""))
        h.sendFailing(.moveCaret(field: "zz", to: .end, extend: true), throws: .unknownField(field: "zz", form: "default"))
    }
}
