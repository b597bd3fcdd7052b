import XCTest
@testable import FormdCore

/// `autoAdvance`: when typing fills `maxLength`, focus moves on as Return with `next`
/// would; on the last field, the field resigns. The one-time-code form: six one-digit
/// boxes that advance as you type and step back on Backspace in an empty box.
final class AutoAdvanceTests: XCTestCase {
    private static let applied = CommandResult.edit(applied: true, reason: nil)
    private let ids = ["d1", "d2", "d3", "d4", "d5", "d6"]

    private func otp() -> FormHarness {
        FormHarness(fields: ids.map { id in
            field(id) {
                $0.maxLength = 1; $0.inputFilter = pattern("[0-9]"); $0.autoAdvance = true; $0.deleteOnEmpty = .focusPrevious
            }
        })
    }

    /// Types `digit` into the first responder `from`, which then hands focus to `to`.
    private func type(_ h: inout FormHarness, _ digit: String, in from: String, advancingTo to: String?, firstVisit: Bool = true,
                      firstResign: Bool = true, file: StaticString = #filePath, line: UInt = #line) {
        var events: [FormEvent] = [.textChanged(field: from, text: digit, length: 1, edit: TextEdit(0, 0, digit), selection: .caret(1)),
                                   .resigned(from)]
        if firstResign { events.append(.touched(from)) }
        if let to {
            events.append(.became(to))
            if firstVisit { events.append(.visited(to)) }
        }
        events.append(.focusChanged(from: from, to: to))
        h.send(.insertText(field: nil, text: digit), Self.applied, events: events,
               state: {
                   $0[from].holds(digit, length: 1, selection: .caret(1)); $0[from].touched = true
                   $0.focus(to); if let to { $0[to].visited = true }
               }, file: file, line: line)
    }

    func testTypingWalksThroughTheBoxesAndTheLastOneResigns() {
        var h = otp()
        h.focus("d1")
        for (i, digit) in ["4", "8", "1", "5", "9"].enumerated() {
            type(&h, digit, in: ids[i], advancingTo: ids[i + 1])
        }
        type(&h, "2", in: "d6", advancingTo: nil)
        XCTAssertEqual(h.expected["default"]?.fields.map { $0.text ?? "" }.joined(), "481592")
    }

    func testBackspaceInAnEmptyBoxStepsBackAndTheNextBackspaceDeletesThere() {
        var h = otp()
        h.focus("d1")
        type(&h, "1", in: "d1", advancingTo: "d2")
        type(&h, "2", in: "d2", advancingTo: "d3")
        h.send(.delete(field: nil), .edit(applied: false, reason: .empty),
               events: [.deletePressed(field: "d3", textBefore: ""), .changeRejected(field: "d3", reason: .empty),
                        .resigned("d3"), .touched("d3"), .became("d2"), .focusChanged(from: "d3", to: "d2")],
               state: { $0.focus("d2"); $0["d3"].touched = true })
        h.send(.delete(field: nil), Self.applied,
               events: [.deletePressed(field: "d2", textBefore: "2"),
                        .textChanged(field: "d2", text: "", length: 0, edit: TextEdit(0, 1, ""), selection: .caret(0))],
               state: { $0["d2"].holds("", length: 0, selection: .caret(0), dirty: false) })
        // Typing again fills the box and moves on.
        type(&h, "7", in: "d2", advancingTo: "d3", firstVisit: false, firstResign: false)
        // And back to the first box, where Backspace on empty has nowhere to go.
        h.send(.demandFocus(field: "d1", demand: .become), .demand(.fulfilled),
               events: [.resigned("d3"), .became("d1"), .focusChanged(from: "d3", to: "d1"), .demand("d1", .fulfilled)],
               state: { $0.focus("d1") })
        h.send(.delete(field: nil), Self.applied,
               events: [.deletePressed(field: "d1", textBefore: "1"),
                        .textChanged(field: "d1", text: "", length: 0, edit: TextEdit(0, 1, ""), selection: .caret(0))],
               state: { $0["d1"].holds("", length: 0, selection: .caret(0), dirty: false) })
        h.send(.delete(field: nil), .edit(applied: false, reason: .empty),
               events: [.deletePressed(field: "d1", textBefore: ""), .changeRejected(field: "d1", reason: .empty)])
    }

    func testARefusedKeyStaysInTheBox() {
        var h = otp()
        h.focus("d1")
        h.send(.insertText(field: nil, text: "x"), .edit(applied: false, reason: .inputFilter),
               events: [.changeRejected(field: "d1", reason: .inputFilter)])
        h.send(.insertText(field: nil, text: "12"), .edit(applied: false, reason: .maxLength),
               events: [.changeRejected(field: "d1", reason: .maxLength)])
        type(&h, "1", in: "d1", advancingTo: "d2")
        h.send(.demandFocus(field: "d1", demand: .become), .demand(.fulfilled),
               events: [.resigned("d2"), .touched("d2"), .became("d1"), .focusChanged(from: "d2", to: "d1"), .demand("d1", .fulfilled)],
               state: { $0.focus("d1"); $0["d2"].touched = true })
        // A full box refuses another digit and keeps focus...
        h.send(.insertText(field: nil, text: "5"), .edit(applied: false, reason: .maxLength),
               events: [.changeRejected(field: "d1", reason: .maxLength)])
        // ...but typing over its selected digit replaces it and moves on.
        h.send(.editAction(field: nil, action: .selectAll, text: nil), .editAction(performed: true, text: nil, reason: nil),
               events: [.selectionChanged(field: "d1", selection: TextRange(0, 1))], state: { $0["d1"].selection = TextRange(0, 1) })
        h.send(.insertText(field: nil, text: "5"), Self.applied,
               events: [.textChanged(field: "d1", text: "5", length: 1, edit: TextEdit(0, 1, "5"), selection: .caret(1)),
                        .resigned("d1"), .became("d2"), .focusChanged(from: "d1", to: "d2")],
               state: { $0["d1"].holds("5", length: 1, selection: .caret(1)); $0.focus("d2") })
    }

    func testOnlyFillingMaxLengthAdvances() {
        var h = FormHarness(fields: [field("code") { $0.maxLength = 3; $0.autoAdvance = true }, field("next"),
                                     field("free") { $0.autoAdvance = true }])
        h.focus("code")
        h.send(.insertText(field: nil, text: "1"), Self.applied,
               events: [.textChanged(field: "code", text: "1", length: 1, edit: TextEdit(0, 0, "1"), selection: .caret(1))],
               state: { $0["code"].holds("1", length: 1, selection: .caret(1)) })
        h.send(.insertText(field: nil, text: "2"), Self.applied,
               events: [.textChanged(field: "code", text: "12", length: 2, edit: TextEdit(1, 1, "2"), selection: .caret(2))],
               state: { $0["code"].holds("12", length: 2, selection: .caret(2)) })
        h.send(.insertText(field: nil, text: "3"), Self.applied,
               events: [.textChanged(field: "code", text: "123", length: 3, edit: TextEdit(2, 2, "3"), selection: .caret(3)),
                        .resigned("code"), .touched("code"), .became("next"), .visited("next"), .focusChanged(from: "code", to: "next")],
               state: {
                   $0["code"].holds("123", length: 3, selection: .caret(3)); $0["code"].touched = true
                   $0.focus("next"); $0["next"].visited = true
               })
        // Without maxLength there is nothing to fill.
        h.send(.demandFocus(field: "free", demand: .become), .demand(.fulfilled),
               events: [.resigned("next"), .touched("next"), .became("free"), .visited("free"), .focusChanged(from: "next", to: "free"),
                        .demand("free", .fulfilled)],
               state: { $0.focus("free"); $0["next"].touched = true; $0["free"].visited = true })
        h.send(.insertText(field: nil, text: "123456789"), Self.applied,
               events: [.textChanged(field: "free", text: "123456789", length: 9, edit: TextEdit(0, 0, "123456789"), selection: .caret(9))],
               state: { $0["free"].holds("123456789", length: 9, selection: .caret(9)) })
    }

    /// Decision: `setText` and typing into a field that is not first responder set text,
    /// they do not type in the focused box, so focus stays; a paste that fills the first
    /// responder is the person's input and moves on like typing.
    func testSetTextAndTypingElsewhereDoNotMoveFocusButAPasteDoes() {
        var h = otp()
        h.focus("d1")
        h.send(.setText(field: "d1", text: "1"), Self.applied,
               events: [.textChanged(field: "d1", text: "1", length: 1, edit: TextEdit(0, 0, "1"), selection: .caret(1))],
               state: { $0["d1"].holds("1", length: 1, selection: .caret(1)) })
        h.send(.insertText(field: "d3", text: "3"), Self.applied,
               events: [.textChanged(field: "d3", text: "3", length: 1, edit: TextEdit(0, 0, "3"), selection: .caret(1))],
               state: { $0["d3"].holds("3", length: 1, selection: .caret(1)) })
        h.send(.focusNext, .focus(firstResponder: "d2", moved: true),
               events: [.resigned("d1"), .touched("d1"), .became("d2"), .visited("d2"), .focusChanged(from: "d1", to: "d2")],
               state: { $0.focus("d2"); $0["d1"].touched = true; $0["d2"].visited = true })
        h.send(.editAction(field: nil, action: .paste, text: "2"), .editAction(performed: true, text: nil, reason: nil),
               events: [.textChanged(field: "d2", text: "2", length: 1, edit: TextEdit(0, 0, "2"), selection: .caret(1)),
                        .resigned("d2"), .touched("d2"), .became("d3"), .visited("d3"), .focusChanged(from: "d2", to: "d3")],
               state: {
                   $0["d2"].holds("2", length: 1, selection: .caret(1)); $0["d2"].touched = true
                   $0.focus("d3"); $0["d3"].visited = true
               })
    }

    func testAdvanceSkipsFieldsThatCannotTakeFocusAndRespectsCanResign() {
        var h = FormHarness(fields: [field("a") { $0.maxLength = 1; $0.autoAdvance = true }, field("off") { $0.enabled = false },
                                     field("label") { $0.canBecomeFirstResponder = false },
                                     field("b") { $0.maxLength = 1; $0.autoAdvance = true; $0.canResignFirstResponder = false }])
        h.focus("a")
        h.send(.insertText(field: nil, text: "x"), Self.applied,
               events: [.textChanged(field: "a", text: "x", length: 1, edit: TextEdit(0, 0, "x"), selection: .caret(1)),
                        .resigned("a"), .touched("a"), .became("b"), .visited("b"), .focusChanged(from: "a", to: "b")],
               state: {
                   $0["a"].holds("x", length: 1, selection: .caret(1)); $0["a"].touched = true
                   $0.focus("b"); $0["b"].visited = true
               })
        // The last field cannot resign: the text goes in, focus stays.
        h.send(.insertText(field: nil, text: "y"), Self.applied,
               events: [.textChanged(field: "b", text: "y", length: 1, edit: TextEdit(0, 0, "y"), selection: .caret(1))],
               state: { $0["b"].holds("y", length: 1, selection: .caret(1)) })
    }
}
