import XCTest
@testable import FormdCore

/// Presets: built-ins, custom ones, combined in order, the field's own keys on top, hints
/// merged key by key.
final class PresetTests: XCTestCase {
    private let emailHints: FieldHints = ["keyboardType": #""emailAddress""#, "textContentType": #""emailAddress""#,
                                          "autocapitalization": #""none""#, "autocorrection": #""no""#]
    private let passwordHints: FieldHints = ["textContentType": #""password""#, "autocapitalization": #""none""#, "autocorrection": #""no""#]

    func testBuiltInPresets() {
        var h = FormHarness()
        h.sendDefine([field("e", ["email"]), field("p", ["password"]) { $0.text = "pw" }, field("n", ["partOfChain"]),
                      field("l", ["lastOfChain"]), field("c", ["autoclears"])],
                     expect: [
                        .expect("e", configuration: ["email"], attributes: attributes { $0.hints = emailHints }),
                        .expect("p", configuration: ["password"], attributes: attributes { $0.secure = true; $0.hints = passwordHints },
                                text: "pw", display: "••", length: 2, selection: .caret(2)),
                        .expect("n", configuration: ["partOfChain"],
                                attributes: attributes { $0.returnAction = .next; $0.hints = ["returnKeyType": #""next""#] }),
                        .expect("l", configuration: ["lastOfChain"],
                                attributes: attributes { $0.returnAction = .resign; $0.hints = ["returnKeyType": #""done""#] }),
                        .expect("c", configuration: ["autoclears"], attributes: attributes { $0.clearsOnBeginEditing = true }),
                     ])
    }

    func testPresetsCombineInOrderLaterWinsAndHintsMergeKeyByKey() {
        var h = FormHarness()
        h.sendDefine([field("x", ["lastOfChain", "partOfChain"]), field("y", ["partOfChain", "lastOfChain"]),
                      field("login", ["email", "password"])],
                     expect: [
                        .expect("x", configuration: ["lastOfChain", "partOfChain"],
                                attributes: attributes { $0.returnAction = .next; $0.hints = ["returnKeyType": #""next""#] }),
                        .expect("y", configuration: ["partOfChain", "lastOfChain"],
                                attributes: attributes { $0.returnAction = .resign; $0.hints = ["returnKeyType": #""done""#] }),
                        // email's keys keep their place; password's value replaces textContentType.
                        .expect("login", configuration: ["email", "password"], attributes: attributes {
                            $0.secure = true
                            $0.hints = ["keyboardType": #""emailAddress""#, "textContentType": #""password""#,
                                        "autocapitalization": #""none""#, "autocorrection": #""no""#]
                        }),
                     ])
    }

    func testTheFieldsOwnKeysWinOverItsPresets() {
        var h = FormHarness()
        h.sendDefine([field("p", ["password", "lastOfChain"]) {
                          $0.secure = false
                          $0.returnAction = .submit
                          $0.hints = ["textContentType": #""newPassword""#, "passwordRules": #""minlength: 8;""#]
                      }],
                     expect: [
                        .expect("p", configuration: ["password", "lastOfChain"], attributes: attributes {
                            $0.returnAction = .submit
                            $0.hints = ["textContentType": #""newPassword""#, "autocapitalization": #""none""#, "autocorrection": #""no""#,
                                        "returnKeyType": #""done""#, "passwordRules": #""minlength: 8;""#]
                        }),
                     ])
    }

    func testAnOwnNullLabelClearsAPresetLabel() {
        var h = FormHarness()
        h.sendDefine([field("a", ["titled"]), field("b", ["titled"]) { $0.label = .some(nil) }],
                     presets: ["titled": options { $0.label = "Title"; $0.placeholder = "type here" }],
                     expect: [
                        .expect("a", configuration: ["titled"], attributes: attributes { $0.label = "Title"; $0.placeholder = "type here" }),
                        .expect("b", configuration: ["titled"], attributes: attributes { $0.placeholder = "type here" }),
                     ])
    }

    func testCustomPresetsAddNamesAndReplaceBuiltInsWhole() {
        var h = FormHarness()
        h.sendDefine([field("pin", ["digits", "email"])],
                     presets: ["digits": options { $0.pattern = pattern("[0-9]*"); $0.maxLength = 6; $0.hints = ["keyboardType": #""numberPad""#] },
                               "email": options { $0.required = true }],
                     expect: [
                        // The custom email has no hints: it replaced the built-in, it did not merge with it.
                        .expect("pin", configuration: ["digits", "email"], attributes: attributes {
                            $0.pattern = pattern("[0-9]*"); $0.maxLength = 6; $0.required = true; $0.hints = ["keyboardType": #""numberPad""#]
                        }, validity: Validity(errors: [ValidationError(.valueMissing, "Fill in this field.")])),
                     ])
    }

    func testCustomPresetsServeLaterAddFieldAndConfigureFieldOfTheSameFormOnly() {
        var h = FormHarness()
        h.define(fields: plainFields("a"), presets: ["loud": options { $0.label = "LOUD" }])
        h.send(.addField(field("b", ["loud"]), after: nil),
               events: [.fieldAdded(.expect("b", configuration: ["loud"], attributes: attributes { $0.label = "LOUD" }), index: 1)],
               state: { $0.fields.append(.expect("b", configuration: ["loud"], attributes: attributes { $0.label = "LOUD" })) })
        h.send(.configureField("a", options: FieldOptions(), configuration: ["loud"]),
               events: [.fieldChanged(field: "a", changes: FieldChanges(options: options { $0.label = "LOUD" }, configuration: ["loud"]))],
               state: { $0["a"].configuration = ["loud"]; $0["a"].attributes.label = "LOUD" })
        // Another form does not see them.
        h.define("other", fields: plainFields("x"))
        h.sendFailing(.configureField("x", options: FieldOptions(), configuration: ["loud"]), on: "other",
                      throws: .invalidParams("unknown preset \"loud\" in configuration; known presets: autoclears, email, lastOfChain, partOfChain, password"))
        // Redefining a form replaces its presets.
        h.define(fields: plainFields("a"))
        h.sendFailing(.addField(field("c", ["loud"]), after: nil),
                      throws: .invalidParams("unknown preset \"loud\" in configuration; known presets: autoclears, email, lastOfChain, partOfChain, password"))
    }

    func testOverlayLayersKeyByKey() {
        let base = options { $0.label = "A"; $0.minLength = 1; $0.hints = ["x": #""1""#, "y": #""2""#] }
        let top = options { $0.minLength = .some(nil); $0.required = true; $0.hints = ["y": #""3""#, "z": #""4""#] }
        XCTAssertEqual(base.overlaid(with: top),
                       options { $0.label = "A"; $0.minLength = .some(nil); $0.required = true; $0.hints = ["x": #""1""#, "y": #""3""#, "z": #""4""#] })
        XCTAssertEqual(base.overlaid(with: FieldOptions()), base)
    }
}
