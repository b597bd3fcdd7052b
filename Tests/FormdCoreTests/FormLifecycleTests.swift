import XCTest
@testable import FormdCore

/// Forms: the default form, creating forms with `defineForm`, redefining, adding and
/// removing fields.
final class FormLifecycleTests: XCTestCase {
    func testTheEngineStartsWithAnEmptyDefaultForm() {
        var h = FormHarness()
        XCTAssertEqual(h.getState(includeSecrets: true), FormSnapshot(form: "default", seq: 0, firstResponder: nil, fields: []))
        XCTAssertEqual(Array(h.engine.forms.keys), ["default"])
    }

    func testDefineFormOnANewNameCreatesThatFormOnly() {
        var h = FormHarness()
        h.sendDefine([field("user", ["email"]) { $0.label = "Email"; $0.required = true }, field("pw", ["password"]) { $0.text = "x" }],
                     on: "login",
                     expect: [
                        .expect("user", configuration: ["email"], attributes: attributes {
                            $0.label = "Email"; $0.required = true
                            $0.hints = ["keyboardType": #""emailAddress""#, "textContentType": #""emailAddress""#,
                                        "autocapitalization": #""none""#, "autocorrection": #""no""#]
                        }, validity: Validity(errors: [ValidationError(.valueMissing, "Fill in this field.")])),
                        .expect("pw", configuration: ["password"], attributes: h.passwordAttributes, text: "x", display: "•", length: 1, selection: .caret(1)),
                     ])
        XCTAssertEqual(Set(h.engine.forms.keys), ["default", "login"])
        h.sendFailing(.setText(field: "user", text: "a"), throws: .unknownField(field: "user", form: "default"))
    }

    func testEmptyFormDefinition() {
        var h = FormHarness()
        h.sendDefine([], on: "blank", expect: [])
        h.send(.submit(includeSecrets: false), on: "blank", .submission(valid: true, values: [], withheld: [], errors: []),
               events: [.submitted(values: [], withheld: [])])
    }

    /// Decision: redefining replaces the whole form; the old responder does not emit a
    /// resign, the `formDefined` state says there is none. Seq carries on.
    func testRedefiningReplacesFieldsAndResponderButNotTheSequence() {
        var h = FormHarness(fields: plainFields("a", "b"))
        h.focus("a")
        h.sendDefine([field("b") { $0.text = "new" }, field("c")],
                     expect: [.expect("b", text: "new", display: "new", length: 3, selection: .caret(3)), .expect("c")])
        XCTAssertEqual(h.log["default"]?.last?.seq, 6)
    }

    func testAddFieldAtTheEndOrAfterAField() {
        var h = FormHarness(fields: plainFields("a", "c"))
        h.send(.addField(field("d") { $0.text = "dd" }, after: nil),
               events: [.fieldAdded(.expect("d", text: "dd", display: "dd", length: 2, selection: .caret(2)), index: 2)],
               state: { $0.fields.append(.expect("d", text: "dd", display: "dd", length: 2, selection: .caret(2))) })
        h.send(.addField(field("b"), after: "a"), events: [.fieldAdded(.expect("b"), index: 1)],
               state: { $0.fields.insert(.expect("b"), at: 1) })
        XCTAssertEqual(h.expected["default"]?.fields.map(\.id), ["a", "b", "c", "d"])
    }

    func testAddedFieldJoinsTheReturnChainAfterTheResponder() {
        var h = FormHarness(fields: plainFields("a", "c"))
        h.focus("a")
        h.send(.addField(field("b"), after: "a"), events: [.fieldAdded(.expect("b"), index: 1)],
               state: { $0.fields.insert(.expect("b"), at: 1) })
        h.send(.pressReturn(field: nil), .returnPressed(.next),
               events: [.returnPressed(field: "a", action: .next), .resigned("a"), .touched("a"), .became("b"), .visited("b"),
                        .focusChanged(from: "a", to: "b")],
               state: { $0.focus("b"); $0["a"].touched = true; $0["b"].visited = true })
    }

    func testInsertingBeforeTheResponderKeepsTheSameResponder() {
        var h = FormHarness(fields: plainFields("a", "c"))
        h.focus("c")
        h.send(.addField(field("b"), after: "a"), events: [.fieldAdded(.expect("b"), index: 1)],
               state: { $0.fields.insert(.expect("b"), at: 1) })
        h.send(.focusPrevious, .focus(firstResponder: "b", moved: true),
               events: [.resigned("c"), .touched("c"), .became("b"), .visited("b"), .focusChanged(from: "c", to: "b")],
               state: { $0.focus("b"); $0["c"].touched = true; $0["b"].visited = true })
    }

    /// Decision: like reset, redefining drops a pending demand without a demandChanged;
    /// the formDefined state shows no demand.
    func testRedefiningDropsAPendingDemand() {
        let fields = [field("a"), field("b") { $0.enabled = false }]
        var h = FormHarness(fields: fields)
        h.send(.demandFocus(field: "b", demand: .become), .demand(.pending),
               events: [.demand("b", .pending, pending: .become)], state: { $0["b"].demand = .become })
        h.sendDefine(fields, expect: [.expect("a"), .expect("b", attributes: attributes { $0.enabled = false })])
        h.send(.setEnabled(field: "b", true), events: [.changed("b") { $0.enabled = true }],
               state: { $0["b"].attributes.enabled = true })
    }

    func testRemovingAFieldThatIsNotFirstResponder() {
        var h = FormHarness(fields: plainFields("a", "b", "c"))
        h.focus("a")
        h.send(.removeField("b"), events: [.fieldRemoved(field: "b")], state: { $0.fields.remove(at: 1) })
        h.send(.pressReturn(field: nil), .returnPressed(.next),
               events: [.returnPressed(field: "a", action: .next), .resigned("a"), .touched("a"), .became("c"), .visited("c"),
                        .focusChanged(from: "a", to: "c")],
               state: { $0.focus("c"); $0["a"].touched = true; $0["c"].visited = true })
        h.sendFailing(.setText(field: "b", text: "x"), throws: .unknownField(field: "b", form: "default"))
        // The id is free again.
        h.send(.addField(field("b"), after: nil), events: [.fieldAdded(.expect("b"), index: 2)], state: { $0.fields.append(.expect("b")) })
    }
}
