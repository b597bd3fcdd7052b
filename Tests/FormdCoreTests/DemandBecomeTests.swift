import XCTest
@testable import FormdCore

/// Rule 1: `demandFocus become F`.
final class DemandBecomeTests: XCTestCase {
    func testDemandOnTheFirstResponderIsFulfilledAtOnceWithoutMovingFocus() {
        var h = FormHarness(fields: plainFields("a", "b"))
        h.focus("a")
        h.send(.demandFocus(field: "a", demand: .become), .demand(.fulfilled),
               events: [.demand("a", .fulfilled)])
    }

    func testOldResponderResignsThenTargetBecomesThenFocusChangedThenFulfilled() {
        var h = FormHarness(fields: plainFields("a", "b"))
        h.focus("a")
        h.send(.demandFocus(field: "b", demand: .become), .demand(.fulfilled),
               events: [.resigned("a"), .touched("a"), .became("b"), .visited("b"),
                        .focusChanged(from: "a", to: "b"), .demand("b", .fulfilled)],
               state: { $0.focus("b"); $0["a"].touched = true; $0["b"].visited = true })
    }

    func testDisabledTargetKeepsTheDemandPendingUntilItIsEnabled() {
        var h = FormHarness(fields: [field("a"), field("b") { $0.enabled = false }])
        h.focus("a")
        h.send(.demandFocus(field: "b", demand: .become), .demand(.pending),
               events: [.demand("b", .pending, pending: .become)],
               state: { $0["b"].demand = .become })
        // Later changes that do not make b able leave the demand pending.
        h.send(.setText(field: "a", text: "x"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "a", text: "x", length: 1, edit: TextEdit(0, 0, "x"), selection: .caret(1))],
               state: { $0["a"].holds("x", length: 1, selection: .caret(1)) })
        h.send(.focusPrevious, .focus(firstResponder: "a", moved: false), events: [])
        h.send(.setEnabled(field: "b", true),
               events: [.changed("b") { $0.enabled = true },
                        .resigned("a"), .touched("a"), .became("b"), .visited("b"),
                        .focusChanged(from: "a", to: "b"), .demand("b", .fulfilled)],
               state: {
                   $0["b"].attributes.enabled = true
                   $0["b"].demand = nil
                   $0.focus("b"); $0["a"].touched = true; $0["b"].visited = true
               })
        // Resolved demands reset to nil: nothing is retried any more.
        h.send(.demandFocus(field: "a", demand: .become), .demand(.fulfilled),
               events: [.resigned("b"), .touched("b"), .became("a"), .focusChanged(from: "b", to: "a"),
                        .demand("a", .fulfilled)],
               state: { $0.focus("a"); $0["b"].touched = true })
        h.send(.setText(field: "b", text: "y"), .edit(applied: true, reason: nil),
               events: [.textChanged(field: "b", text: "y", length: 1, edit: TextEdit(0, 0, "y"), selection: .caret(1))],
               state: { $0["b"].holds("y", length: 1, selection: .caret(1)) })
    }

    func testPendingDemandIsFulfilledWhenConfigureFieldEnablesTheField() {
        var h = FormHarness(fields: [field("a") { $0.enabled = false }])
        h.send(.demandFocus(field: "a", demand: .become), .demand(.pending),
               events: [.demand("a", .pending, pending: .become)], state: { $0["a"].demand = .become })
        h.send(.configureField("a", options: options { $0.enabled = true; $0.label = "Name" }, configuration: nil),
               events: [.changed("a") { $0.label = "Name"; $0.enabled = true },
                        .became("a"), .visited("a"), .focusChanged(from: nil, to: "a"), .demand("a", .fulfilled)],
               state: {
                   $0["a"].attributes.enabled = true
                   $0["a"].attributes.label = "Name"
                   $0["a"].demand = nil
                   $0.focus("a"); $0["a"].visited = true
               })
    }

    func testRepeatingThePendingDemandOnTheSameFieldKeepsItPending() {
        var h = FormHarness(fields: [field("a") { $0.enabled = false }])
        h.send(.demandFocus(field: "a", demand: .become), .demand(.pending),
               events: [.demand("a", .pending, pending: .become)], state: { $0["a"].demand = .become })
        h.send(.demandFocus(field: "a", demand: .become), .demand(.pending),
               events: [.demand("a", .pending, pending: .become)])
    }

    func testNewBecomeDemandRefusesAnotherFieldsPendingOneFirst() {
        var h = FormHarness(fields: [field("a") { $0.enabled = false }, field("b") { $0.enabled = false }, field("c")])
        h.send(.demandFocus(field: "a", demand: .become), .demand(.pending),
               events: [.demand("a", .pending, pending: .become)], state: { $0["a"].demand = .become })
        // Superseded by another pending demand.
        h.send(.demandFocus(field: "b", demand: .become), .demand(.pending),
               events: [.demand("a", .refused), .demand("b", .pending, pending: .become)],
               state: { $0["a"].demand = nil; $0["b"].demand = .become })
        // Superseded by a demand that is fulfilled at once.
        h.send(.demandFocus(field: "c", demand: .become), .demand(.fulfilled),
               events: [.demand("b", .refused), .became("c"), .visited("c"), .focusChanged(from: nil, to: "c"),
                        .demand("c", .fulfilled)],
               state: { $0["b"].demand = nil; $0.focus("c"); $0["c"].visited = true })
        // The superseded fields do not take focus when they are enabled later.
        h.send(.setEnabled(field: "a", true), events: [.changed("a") { $0.enabled = true }],
               state: { $0["a"].attributes.enabled = true })
        h.send(.setEnabled(field: "b", true), events: [.changed("b") { $0.enabled = true }],
               state: { $0["b"].attributes.enabled = true })
    }

    func testNewBecomeDemandThatIsRefusedStillSupersedesThePendingOne() {
        var h = FormHarness(fields: [field("a") { $0.enabled = false }, field("b") { $0.canBecomeFirstResponder = false }])
        h.send(.demandFocus(field: "a", demand: .become), .demand(.pending),
               events: [.demand("a", .pending, pending: .become)], state: { $0["a"].demand = .become })
        h.send(.demandFocus(field: "b", demand: .become), .demand(.refused),
               events: [.demand("a", .refused), .demand("b", .refused)],
               state: { $0["a"].demand = nil })
    }

    func testTargetThatCannotBecomeRefusesAndNothingMoves() {
        var h = FormHarness(fields: [field("a"), field("b") { $0.canBecomeFirstResponder = false }])
        h.focus("a")
        h.send(.demandFocus(field: "b", demand: .become), .demand(.refused), events: [.demand("b", .refused)])
    }

    func testResponderThatCannotResignRefusesTheDemandAndKeepsFocus() {
        var h = FormHarness(fields: [field("a") { $0.canResignFirstResponder = false }, field("b")])
        h.focus("a")
        h.send(.demandFocus(field: "b", demand: .become), .demand(.refused), events: [.demand("b", .refused)])
    }

    func testPendingDemandRetriedWhileResponderCannotResignIsRefused() {
        var h = FormHarness(fields: [field("a") { $0.canResignFirstResponder = false }, field("b") { $0.enabled = false }])
        h.focus("a")
        h.send(.demandFocus(field: "b", demand: .become), .demand(.pending),
               events: [.demand("b", .pending, pending: .become)], state: { $0["b"].demand = .become })
        h.send(.setEnabled(field: "b", true),
               events: [.changed("b") { $0.enabled = true }, .demand("b", .refused)],
               state: { $0["b"].attributes.enabled = true; $0["b"].demand = nil })
    }

    /// Decision: the disabled check comes first, so a disabled field that also cannot
    /// become keeps the demand pending; it is refused when the field is enabled.
    func testDisabledFieldThatCannotBecomeIsPendingThenRefusedWhenEnabled() {
        var h = FormHarness(fields: [field("a") { $0.enabled = false; $0.canBecomeFirstResponder = false }])
        h.send(.demandFocus(field: "a", demand: .become), .demand(.pending),
               events: [.demand("a", .pending, pending: .become)], state: { $0["a"].demand = .become })
        h.send(.setEnabled(field: "a", true),
               events: [.changed("a") { $0.enabled = true }, .demand("a", .refused)],
               state: { $0["a"].attributes.enabled = true; $0["a"].demand = nil })
    }

    func testPendingDemandFollowsItsFieldWhenFieldsAreInsertedAndRemovedBeforeIt() {
        var h = FormHarness(fields: [field("a"), field("b"), field("c") { $0.enabled = false }])
        h.send(.demandFocus(field: "c", demand: .become), .demand(.pending),
               events: [.demand("c", .pending, pending: .become)], state: { $0["c"].demand = .become })
        h.send(.addField(field("new"), after: nil), events: [.fieldAdded(.expect("new"), index: 3)],
               state: { $0.fields.append(.expect("new")) })
        h.send(.addField(field("first"), after: "a"), events: [.fieldAdded(.expect("first"), index: 1)],
               state: { $0.fields.insert(.expect("first"), at: 1) })
        h.send(.removeField("a"), events: [.fieldRemoved(field: "a")],
               state: { $0.fields.removeFirst() })
        h.send(.setEnabled(field: "c", true),
               events: [.changed("c") { $0.enabled = true }, .became("c"), .visited("c"),
                        .focusChanged(from: nil, to: "c"), .demand("c", .fulfilled)],
               state: {
                   $0["c"].attributes.enabled = true; $0["c"].demand = nil
                   $0.focus("c"); $0["c"].visited = true
               })
    }

    func testRemovingTheFieldWithThePendingDemandRefusesIt() {
        var h = FormHarness(fields: [field("a"), field("b") { $0.enabled = false }])
        h.send(.demandFocus(field: "b", demand: .become), .demand(.pending),
               events: [.demand("b", .pending, pending: .become)], state: { $0["b"].demand = .become })
        h.send(.removeField("b"), events: [.demand("b", .refused), .fieldRemoved(field: "b")],
               state: { $0.fields.removeLast() })
        // Nothing is left to retry: a new field with the same id is not focused when enabled.
        h.send(.addField(field("b") { $0.enabled = false }, after: nil),
               events: [.fieldAdded(.expect("b", attributes: attributes { $0.enabled = false }), index: 1)],
               state: { $0.fields.append(.expect("b", attributes: attributes { $0.enabled = false })) })
        h.send(.setEnabled(field: "b", true), events: [.changed("b") { $0.enabled = true }],
               state: { $0["b"].attributes.enabled = true })
    }

    func testResignDemandOnAFieldWithAPendingBecomeRefusesTheBecome() {
        var h = FormHarness(fields: [field("a") { $0.enabled = false }])
        h.send(.demandFocus(field: "a", demand: .become), .demand(.pending),
               events: [.demand("a", .pending, pending: .become)], state: { $0["a"].demand = .become })
        h.send(.demandFocus(field: "a", demand: .resign), .demand(.fulfilled),
               events: [.demand("a", .refused), .demand("a", .fulfilled)],
               state: { $0["a"].demand = nil })
        h.send(.setEnabled(field: "a", true), events: [.changed("a") { $0.enabled = true }],
               state: { $0["a"].attributes.enabled = true })
    }

    func testResignDemandOnAnotherFieldLeavesThePendingBecomeAlone() {
        var h = FormHarness(fields: [field("a"), field("b") { $0.enabled = false }])
        h.send(.demandFocus(field: "b", demand: .become), .demand(.pending),
               events: [.demand("b", .pending, pending: .become)], state: { $0["b"].demand = .become })
        h.send(.demandFocus(field: "a", demand: .resign), .demand(.fulfilled), events: [.demand("a", .fulfilled)])
        h.send(.setEnabled(field: "b", true),
               events: [.changed("b") { $0.enabled = true }, .became("b"), .visited("b"),
                        .focusChanged(from: nil, to: "b"), .demand("b", .fulfilled)],
               state: { $0["b"].attributes.enabled = true; $0["b"].demand = nil; $0.focus("b"); $0["b"].visited = true })
    }

    func testUnknownFieldThrowsAndChangesNothing() {
        var h = FormHarness(fields: plainFields("a"))
        h.sendFailing(.demandFocus(field: "zz", demand: .become), throws: .unknownField(field: "zz", form: "default"))
        h.sendFailing(.demandFocus(field: "zz", demand: .resign), throws: .unknownField(field: "zz", form: "default"))
    }
}
