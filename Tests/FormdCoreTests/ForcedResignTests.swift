import XCTest
@testable import FormdCore

/// Rule 3: disabling or removing the first responder makes it resign, whatever
/// `canResignFirstResponder` says.
final class ForcedResignTests: XCTestCase {
    private let stubborn = [field("a") { $0.canResignFirstResponder = false }, field("b")]

    func testSetEnabledFalseResignsAStubbornResponder() {
        var h = FormHarness(fields: stubborn)
        h.focus("a")
        h.send(.setEnabled(field: "a", false),
               events: [.changed("a") { $0.enabled = false }, .resigned("a"), .touched("a"), .focusChanged(from: "a", to: nil)],
               state: { $0["a"].attributes.enabled = false; $0.focus(nil); $0["a"].touched = true })
        // Focus is not handed on to b: the form simply has no first responder.
        h.send(.focusNext, .focus(firstResponder: "b", moved: true),
               events: [.became("b"), .visited("b"), .focusChanged(from: nil, to: "b")],
               state: { $0.focus("b"); $0["b"].visited = true })
    }

    func testConfigureFieldEnabledFalseResignsAStubbornResponder() {
        var h = FormHarness(fields: stubborn)
        h.focus("a")
        h.send(.configureField("a", options: options { $0.enabled = false; $0.placeholder = "off" }, configuration: nil),
               events: [.changed("a") { $0.placeholder = "off"; $0.enabled = false },
                        .resigned("a"), .touched("a"), .focusChanged(from: "a", to: nil)],
               state: {
                   $0["a"].attributes.enabled = false; $0["a"].attributes.placeholder = "off"
                   $0.focus(nil); $0["a"].touched = true
               })
    }

    func testDisablingThroughAPresetResignsTheResponder() {
        var h = FormHarness(fields: stubborn, presets: ["off": options { $0.enabled = false }])
        h.focus("a")
        h.send(.configureField("a", options: FieldOptions(), configuration: ["off"]),
               events: [.fieldChanged(field: "a", changes: FieldChanges(options: options { $0.enabled = false }, configuration: ["off"])),
                        .resigned("a"), .touched("a"), .focusChanged(from: "a", to: nil)],
               state: {
                   $0["a"].attributes.enabled = false; $0["a"].configuration = ["off"]
                   $0.focus(nil); $0["a"].touched = true
               })
    }

    func testDisablingAFieldThatIsNotFirstResponderLeavesFocusAlone() {
        var h = FormHarness(fields: stubborn)
        h.focus("a")
        h.send(.setEnabled(field: "b", false), events: [.changed("b") { $0.enabled = false }],
               state: { $0["b"].attributes.enabled = false })
    }

    func testSetEnabledToTheCurrentValueReportsNothing() {
        var h = FormHarness(fields: stubborn)
        h.focus("a")
        h.send(.setEnabled(field: "a", true), events: [])
    }

    func testRemovingAStubbornResponderResignsItBeforeItIsRemoved() {
        var h = FormHarness(fields: stubborn)
        h.focus("a")
        h.send(.removeField("a"),
               events: [.resigned("a"), .touched("a"), .focusChanged(from: "a", to: nil), .fieldRemoved(field: "a")],
               state: { $0.focus(nil); $0.fields.removeFirst() })
        // The remaining field is reachable at its new place.
        h.send(.focusNext, .focus(firstResponder: "b", moved: true),
               events: [.became("b"), .visited("b"), .focusChanged(from: nil, to: "b")],
               state: { $0.focus("b"); $0["b"].visited = true })
    }

    func testRemovingAFieldBeforeTheResponderKeepsTheSameResponder() {
        var h = FormHarness(fields: plainFields("a", "b", "c"))
        h.focus("c")
        h.send(.removeField("a"), events: [.fieldRemoved(field: "a")], state: { $0.fields.removeFirst() })
        h.send(.focusPrevious, .focus(firstResponder: "b", moved: true),
               events: [.resigned("c"), .touched("c"), .became("b"), .visited("b"), .focusChanged(from: "c", to: "b")],
               state: { $0.focus("b"); $0["c"].touched = true; $0["b"].visited = true })
    }

    func testUnknownFieldsThrowAndChangeNothing() {
        var h = FormHarness(fields: stubborn)
        h.focus("a")
        h.sendFailing(.setEnabled(field: "zz", false), throws: .unknownField(field: "zz", form: "default"))
        h.sendFailing(.removeField("zz"), throws: .unknownField(field: "zz", form: "default"))
    }
}
