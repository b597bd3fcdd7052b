import XCTest
@testable import FormdCore

/// Rule 8: `focusNext`/`focusPrevious` move through enabled fields that can become, in
/// order, wrapping around.
final class FocusCycleTests: XCTestCase {
    private let mixed = [field("a"), field("off") { $0.enabled = false }, field("b"),
                         field("label") { $0.canBecomeFirstResponder = false }, field("c")]

    func testFocusNextWalksForwardSkippingAndWraps() {
        var h = FormHarness(fields: mixed)
        h.send(.focusNext, .focus(firstResponder: "a", moved: true),
               events: [.became("a"), .visited("a"), .focusChanged(from: nil, to: "a")],
               state: { $0.focus("a"); $0["a"].visited = true })
        h.send(.focusNext, .focus(firstResponder: "b", moved: true),
               events: [.resigned("a"), .touched("a"), .became("b"), .visited("b"), .focusChanged(from: "a", to: "b")],
               state: { $0.focus("b"); $0["a"].touched = true; $0["b"].visited = true })
        h.send(.focusNext, .focus(firstResponder: "c", moved: true),
               events: [.resigned("b"), .touched("b"), .became("c"), .visited("c"), .focusChanged(from: "b", to: "c")],
               state: { $0.focus("c"); $0["b"].touched = true; $0["c"].visited = true })
        h.send(.focusNext, .focus(firstResponder: "a", moved: true),
               events: [.resigned("c"), .touched("c"), .became("a"), .focusChanged(from: "c", to: "a")],
               state: { $0.focus("a"); $0["c"].touched = true })
    }

    func testFocusPreviousWalksBackwardSkippingAndWraps() {
        var h = FormHarness(fields: mixed)
        h.send(.focusPrevious, .focus(firstResponder: "c", moved: true),
               events: [.became("c"), .visited("c"), .focusChanged(from: nil, to: "c")],
               state: { $0.focus("c"); $0["c"].visited = true })
        h.send(.focusPrevious, .focus(firstResponder: "b", moved: true),
               events: [.resigned("c"), .touched("c"), .became("b"), .visited("b"), .focusChanged(from: "c", to: "b")],
               state: { $0.focus("b"); $0["c"].touched = true; $0["b"].visited = true })
        h.send(.focusPrevious, .focus(firstResponder: "a", moved: true),
               events: [.resigned("b"), .touched("b"), .became("a"), .visited("a"), .focusChanged(from: "b", to: "a")],
               state: { $0.focus("a"); $0["b"].touched = true; $0["a"].visited = true })
        h.send(.focusPrevious, .focus(firstResponder: "c", moved: true),
               events: [.resigned("a"), .touched("a"), .became("c"), .focusChanged(from: "a", to: "c")],
               state: { $0.focus("c"); $0["a"].touched = true })
    }

    func testTheOnlyFocusableFieldStaysWithoutEvents() {
        var h = FormHarness(fields: [field("off") { $0.enabled = false }, field("a")])
        h.focus("a")
        h.send(.focusNext, .focus(firstResponder: "a", moved: false), events: [])
        h.send(.focusPrevious, .focus(firstResponder: "a", moved: false), events: [])
    }

    func testNothingFocusableLeavesNoResponder() {
        var h = FormHarness(fields: [field("off") { $0.enabled = false }, field("label") { $0.canBecomeFirstResponder = false }])
        h.send(.focusNext, .focus(firstResponder: nil, moved: false), events: [])
        h.send(.focusPrevious, .focus(firstResponder: nil, moved: false), events: [])
        var empty = FormHarness()
        empty.send(.focusNext, .focus(firstResponder: nil, moved: false), events: [])
    }

    func testResponderThatCannotResignKeepsFocus() {
        var h = FormHarness(fields: [field("a") { $0.canResignFirstResponder = false }, field("b")])
        h.focus("a")
        h.send(.focusNext, .focus(firstResponder: "a", moved: false), events: [])
        h.send(.focusPrevious, .focus(firstResponder: "a", moved: false), events: [])
    }
}
