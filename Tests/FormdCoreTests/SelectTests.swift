import XCTest
@testable import FormdCore

/// `select {field?, start, end}`: positions in the client's encoding; `start` is the fixed
/// end, so `start > end` selects backwards and a later extend moves `end`. The selection is
/// always reported with start ≤ end, and `backward` when the moving end is the start.
final class SelectTests: XCTestCase {
    func testSelectAForwardRangeOrACaret() {
        var h = FormHarness(fields: [field("a") { $0.text = "hello" }])
        h.send(.select(field: "a", start: 1, end: 4), .selection(TextRange(1, 4)),
               events: [.selectionChanged(field: "a", selection: TextRange(1, 4))], state: { $0["a"].selection = TextRange(1, 4) })
        h.send(.select(field: "a", start: 2, end: 2), .selection(.caret(2)),
               events: [.selectionChanged(field: "a", selection: .caret(2))], state: { $0["a"].selection = .caret(2) })
        h.send(.select(field: "a", start: 0, end: 5), .selection(TextRange(0, 5)),
               events: [.selectionChanged(field: "a", selection: TextRange(0, 5))], state: { $0["a"].selection = TextRange(0, 5) })
    }

    func testSelectingWhatIsSelectedAlreadyReportsNothing() {
        var h = FormHarness(fields: [field("a") { $0.text = "hello" }])
        h.send(.select(field: "a", start: 5, end: 5), .selection(.caret(5)), events: [])
        h.send(.select(field: "a", start: 1, end: 3), .selection(TextRange(1, 3)),
               events: [.selectionChanged(field: "a", selection: TextRange(1, 3))], state: { $0["a"].selection = TextRange(1, 3) })
        h.send(.select(field: "a", start: 1, end: 3), .selection(TextRange(1, 3)), events: [])
    }

    func testABackwardSelectionIsReportedInOrderAsBackwardAndExtendsFromItsEnd() {
        var h = FormHarness(fields: [field("a") { $0.text = "hello" }])
        h.send(.select(field: "a", start: 4, end: 1), .selection(.backward(1, 4)),
               events: [.selectionChanged(field: "a", selection: .backward(1, 4))], state: { $0["a"].selection = .backward(1, 4) })
        // The moving end is `end` (1): extending right shrinks the selection from the left.
        h.send(.moveCaret(field: "a", to: .right, extend: true), .selection(.backward(2, 4)),
               events: [.selectionChanged(field: "a", selection: .backward(2, 4))], state: { $0["a"].selection = .backward(2, 4) })
        // The same range selected forwards is a change (of direction) and now moves its right end.
        h.send(.select(field: "a", start: 2, end: 4), .selection(TextRange(2, 4)),
               events: [.selectionChanged(field: "a", selection: TextRange(2, 4))], state: { $0["a"].selection = TextRange(2, 4) })
        h.send(.moveCaret(field: "a", to: .right, extend: true), .selection(TextRange(2, 5)),
               events: [.selectionChanged(field: "a", selection: TextRange(2, 5))], state: { $0["a"].selection = TextRange(2, 5) })
    }

    /// `backward` follows the head: set while it is before the anchor, cleared when it
    /// meets the anchor (a caret) or crosses it. Over a masked field's bullets (three bytes
    /// each in UTF-8), as anywhere.
    func testTheDirectionFollowsTheHeadAcrossTheAnchorInAMaskedUTF8Field() {
        var h = FormHarness(fields: [field("pw", ["password"]) { $0.text = "a👍🏽漢b" }], encoding: .utf8)
        func extend(_ to: CaretTarget, _ expected: TextRange, line: UInt = #line) {
            h.send(.moveCaret(field: "pw", to: to, extend: true), .selection(expected),
                   events: [.selectionChanged(field: "pw", selection: expected)], state: { $0["pw"].selection = expected },
                   line: line)
        }
        h.send(.select(field: "pw", start: 9, end: 3), .selection(.backward(3, 9)),
               events: [.selectionChanged(field: "pw", selection: .backward(3, 9))], state: { $0["pw"].selection = .backward(3, 9) })
        extend(.left, .backward(0, 9))
        extend(.right, .backward(3, 9))
        extend(.right, .backward(6, 9))
        extend(.right, .caret(9))
        extend(.right, TextRange(9, 12))
        extend(.left, .caret(9))
        extend(.left, .backward(6, 9))
        // Only the direction changes: still a change.
        h.send(.select(field: "pw", start: 6, end: 9), .selection(TextRange(6, 9)),
               events: [.selectionChanged(field: "pw", selection: TextRange(6, 9))], state: { $0["pw"].selection = TextRange(6, 9) })
    }

    func testSelectingInAFieldThatIsNotFirstResponderLeavesFocusAlone() {
        var h = FormHarness(fields: [field("a"), field("b") { $0.text = "xyz" }])
        h.focus("a")
        h.send(.select(field: "b", start: 0, end: 3), .selection(TextRange(0, 3)),
               events: [.selectionChanged(field: "b", selection: TextRange(0, 3))], state: { $0["b"].selection = TextRange(0, 3) })
        h.send(.select(field: nil, start: 0, end: 0), .selection(.caret(0)), events: [])
    }

    func testAMaskedFieldSelectsOverItsBullets() {
        var h = FormHarness(fields: [field("pw", ["password"]) { $0.text = "e\u{301}👍🏽x" }])
        h.send(.select(field: "pw", start: 1, end: 2), .selection(TextRange(1, 2)),
               events: [.selectionChanged(field: "pw", selection: TextRange(1, 2))], state: { $0["pw"].selection = TextRange(1, 2) })
        h.sendFailing(.select(field: "pw", start: 0, end: 4),
                      throws: .invalidParams("position 4 is outside the field's text (0...3 in character)"))
    }

    func testPositionsOutsideTheTextAreErrorsThatChangeNothing() {
        var h = FormHarness(fields: [field("a") { $0.text = "hello" }])
        h.send(.select(field: "a", start: 1, end: 2), .selection(TextRange(1, 2)),
               events: [.selectionChanged(field: "a", selection: TextRange(1, 2))], state: { $0["a"].selection = TextRange(1, 2) })
        h.sendFailing(.select(field: "a", start: -1, end: 2),
                      throws: .invalidParams("position -1 is outside the field's text (0...5 in character)"))
        h.sendFailing(.select(field: "a", start: 0, end: 6),
                      throws: .invalidParams("position 6 is outside the field's text (0...5 in character)"))
        // Both wrong: the start is named.
        h.sendFailing(.select(field: "a", start: 9, end: -3),
                      throws: .invalidParams("position 9 is outside the field's text (0...5 in character)"))
        var empty = FormHarness(fields: plainFields("e"))
        empty.sendFailing(.select(field: "e", start: 0, end: 1),
                          throws: .invalidParams("position 1 is outside the field's text (0...0 in character)"))
    }

    func testNoFieldAndNoFirstResponderOrAnUnknownFieldIsAnError() {
        var h = FormHarness(fields: plainFields("a"))
        h.sendFailing(.select(field: nil, start: 0, end: 0),
                      throws: .invalidParams("no field given and form \"default\" has no first responder; pass \"field\""))
        h.sendFailing(.select(field: "zz", start: 0, end: 0), throws: .unknownField(field: "zz", form: "default"))
    }
}
