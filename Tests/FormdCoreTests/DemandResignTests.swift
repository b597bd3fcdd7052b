import XCTest
@testable import FormdCore

/// Rule 2: `demandFocus resign F`.
final class DemandResignTests: XCTestCase {
    func testResignOnAFieldThatIsNotFirstResponderIsFulfilledAtOnce() {
        var h = FormHarness(fields: [field("a"), field("b") { $0.canResignFirstResponder = false }])
        h.focus("a")
        // Even a field that could never resign: it is not first responder, so there is nothing to do.
        h.send(.demandFocus(field: "b", demand: .resign), .demand(.fulfilled), events: [.demand("b", .fulfilled)])
    }

    func testResignWithNoFirstResponderAtAllIsFulfilled() {
        var h = FormHarness(fields: plainFields("a"))
        h.send(.demandFocus(field: "a", demand: .resign), .demand(.fulfilled), events: [.demand("a", .fulfilled)])
    }

    func testResponderThatCannotResignRefusesAndKeepsFocus() {
        var h = FormHarness(fields: [field("a") { $0.canResignFirstResponder = false }])
        h.focus("a")
        h.send(.demandFocus(field: "a", demand: .resign), .demand(.refused), events: [.demand("a", .refused)])
    }

    func testResponderResignsAndTheFormHasNoFirstResponder() {
        var h = FormHarness(fields: plainFields("a", "b"))
        h.focus("a")
        h.send(.demandFocus(field: "a", demand: .resign), .demand(.fulfilled),
               events: [.resigned("a"), .touched("a"), .focusChanged(from: "a", to: nil), .demand("a", .fulfilled)],
               state: { $0.focus(nil); $0["a"].touched = true })
        // Focus did not move on to b, and the demand can be made again.
        h.send(.demandFocus(field: "a", demand: .resign), .demand(.fulfilled), events: [.demand("a", .fulfilled)])
    }

    func testSecondResignAfterRefocusDoesNotReportTouchedAgain() {
        var h = FormHarness(fields: plainFields("a"))
        h.focus("a")
        h.send(.demandFocus(field: "a", demand: .resign), .demand(.fulfilled),
               events: [.resigned("a"), .touched("a"), .focusChanged(from: "a", to: nil), .demand("a", .fulfilled)],
               state: { $0.focus(nil); $0["a"].touched = true })
        h.send(.demandFocus(field: "a", demand: .become), .demand(.fulfilled),
               events: [.became("a"), .focusChanged(from: nil, to: "a"), .demand("a", .fulfilled)],
               state: { $0.focus("a") })
        h.send(.demandFocus(field: "a", demand: .resign), .demand(.fulfilled),
               events: [.resigned("a"), .focusChanged(from: "a", to: nil), .demand("a", .fulfilled)],
               state: { $0.focus(nil) })
    }
}
