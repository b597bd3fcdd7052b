import XCTest
@testable import FormdCore

/// Every event is stamped with its form and the next seq of that form: +1 per event, no
/// gaps, never reset; causes come before effects.
final class EventSequenceTests: XCTestCase {
    func testSeqNumbersCountUpByOnePerEventAcrossCommands() throws {
        var engine = FormEngine()
        let defined = try engine.perform(.defineForm(fields: plainFields("a", "b"), presets: [:]))
        let moved = try engine.perform(.focusNext)
        let again = try engine.perform(.focusNext)
        let stamps = (defined.events + moved.events + again.events).map { "\($0.form)#\($0.seq)" }
        XCTAssertEqual(stamps, (1...9).map { "default#\($0)" })
        XCTAssertEqual(again.events.map(\.event),
                       [.resigned("a"), .touched("a"), .became("b"), .visited("b"), .focusChanged(from: "a", to: "b")])
        guard case .state(let state) = try engine.perform(.getState(includeSecrets: false)).result else { return XCTFail() }
        XCTAssertEqual(state.seq, 9)
    }

    func testStateEventsCarryTheirOwnSeq() throws {
        var engine = FormEngine()
        _ = try engine.perform(.defineForm(fields: plainFields("a"), presets: [:]))
        _ = try engine.perform(.setText(field: "a", text: "x"))
        let redefined = try engine.perform(.defineForm(fields: plainFields("a"), presets: [:]))
        let reset = try engine.perform(.reset)
        guard case .formDefined(let d) = redefined.events.first?.event, case .formReset(let r) = reset.events.first?.event else {
            return XCTFail("expected formDefined and formReset, got \(redefined.events) \(reset.events)")
        }
        XCTAssertEqual([redefined.events[0].seq, d.seq, reset.events[0].seq, r.seq], [3, 3, 4, 4])
    }

    func testEachFormHasItsOwnSequence() {
        var h = FormHarness(fields: plainFields("a"))
        h.define("login", fields: plainFields("user"))
        h.send(.focusNext, on: "login", .focus(firstResponder: "user", moved: true),
               events: [.became("user"), .visited("user"), .focusChanged(from: nil, to: "user")],
               state: { $0.focus("user"); $0["user"].visited = true })
        h.send(.setText(field: "a", text: "x"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: "x", length: 1, edit: TextEdit(0, 0, "x"), selection: .caret(1))],
               state: { $0["a"].holds("x", length: 1, selection: .caret(1)) })
        XCTAssertEqual(h.log["login"]?.map(\.seq), [1, 2, 3, 4])
        XCTAssertEqual(h.log["default"]?.map(\.seq), [1, 2])
    }

    func testFailingAndReadOnlyCommandsUseNoSeq() {
        var h = FormHarness(fields: plainFields("a"))
        h.sendFailing(.setText(field: "zz", text: "x"), throws: .unknownField(field: "zz", form: "default"))
        _ = h.getState(includeSecrets: true)
        h.send(.validate, .validation(valid: true, errors: []), events: [])
        h.send(.setText(field: "a", text: "x"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: "x", length: 1, edit: TextEdit(0, 0, "x"), selection: .caret(1))],
               state: { $0["a"].holds("x", length: 1, selection: .caret(1)) })
        XCTAssertEqual(h.log["default"]?.map(\.seq), [1, 2])
    }

    /// The full causal chain of one command that sets off several rules at once:
    /// Return submits an invalid form, focus moves to an autoclearing invalid field.
    func testCausalOrderOfAChainReaction() {
        var h = FormHarness(fields: [field("code", ["autoclears"]) { $0.text = "12"; $0.minLength = 4 },
                                     field("go") { $0.returnAction = .submit }])
        h.focus("go")
        h.send(.pressReturn(field: nil), .returnPressed(.submit),
               events: [.returnPressed(field: "go", action: .submit),
                        .submitFailed(errors: [FieldErrors(field: "code", errors: [ValidationError(.tooShort, "Use at least 4 characters.")])]),
                        .resigned("go"), .touched("go"),
                        .became("code"), .visited("code"), .textChanged(field: "code", text: "", length: 0, edit: TextEdit(0, 2, ""), selection: .caret(0)),
                        .validityChanged(field: "code", validity: .valid), .focusChanged(from: "go", to: "code")],
               state: {
                   $0.focus("code"); $0["go"].touched = true; $0["code"].visited = true
                   $0["code"].holds("", length: 0, selection: .caret(0)); $0["code"].validity = .valid
               })
    }
}
