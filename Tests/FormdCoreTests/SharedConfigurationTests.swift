@testable import FormdCore
import XCTest

/// Fields configured alike share one configuration object, but only when every string of
/// it is spelt byte for byte the same: Swift's `==` on strings is canonical equivalence,
/// under which "Café" (one scalar é) and "Cafe\u{301}" (e and a combining accent) are
/// equal, yet each field must report the spelling it was given.
final class SharedConfigurationTests: XCTestCase {
    private let composed = "Caf\u{E9}"
    private let decomposed = "Cafe\u{301}"

    private func bytes(_ s: String?) -> [UInt8]? { s.map { Array($0.utf8) } }

    private func fields(_ engine: inout FormEngine) throws -> [FieldSnapshot] {
        guard case .state(let s) = try engine.perform(.getState(includeSecrets: false)).result else {
            XCTFail("getState gave no state")
            return []
        }
        return s.fields
    }

    func testCanonicallyEqualButDifferentlySpeltKeysAreNotShared() throws {
        let spellings: [(String, (inout FieldOptions, String) -> Void, (FieldSnapshot) -> String?)] = [
            ("label", { $0.label = .some($1) }, { $0.attributes.label }),
            ("placeholder", { $0.placeholder = .some($1) }, { $0.attributes.placeholder }),
            ("patternHint", { $0.patternHint = .some($1) }, { $0.attributes.patternHint }),
            ("hint value", { $0.hints = ["note": "\"\($1)\""] }, { $0.attributes.hints.members.first.map { String($0.json.dropFirst().dropLast()) } }),
        ]
        for (key, set, read) in spellings {
            var a = FieldOptions(), b = FieldOptions()
            set(&a, composed)
            set(&b, decomposed)
            var engine = FormEngine()
            _ = try engine.perform(.defineForm(fields: [FieldSpec(id: "a", configuration: [], options: a),
                                                        FieldSpec(id: "b", configuration: [], options: b)], presets: [:]))
            _ = try engine.perform(.addField(FieldSpec(id: "c", configuration: [], options: b), after: "a"))
            let got = try fields(&engine)
            XCTAssertEqual(got.map(\.id), ["a", "c", "b"])
            XCTAssertEqual(bytes(read(got[0])), bytes(composed), key)
            XCTAssertEqual(bytes(read(got[1])), bytes(decomposed), "\(key): added after a field spelt otherwise")
            XCTAssertEqual(bytes(read(got[2])), bytes(decomposed), "\(key): defined after a field spelt otherwise")
        }
    }

    func testPresetNamesKeepTheirSpelling() throws {
        var engine = FormEngine()
        var preset = FieldOptions()
        preset.label = .some("x")
        _ = try engine.perform(.defineForm(fields: [FieldSpec(id: "a", configuration: [composed], options: FieldOptions()),
                                                    FieldSpec(id: "b", configuration: [decomposed], options: FieldOptions())],
                                           presets: [composed: preset]))
        let got = try fields(&engine)
        XCTAssertEqual(got[0].configuration.map(bytes), [bytes(composed)])
        XCTAssertEqual(got[1].configuration.map(bytes), [bytes(decomposed)])
    }

    func testFieldsSpeltAlikeStillShare() throws {
        var engine = FormEngine()
        var a = FieldOptions()
        a.label = .some(decomposed)
        _ = try engine.perform(.defineForm(fields: (0..<3).map { FieldSpec(id: "f\($0)", configuration: [], options: a) }, presets: [:]))
        let form = try XCTUnwrap(engine.forms[FormEngine.defaultForm])
        XCTAssertTrue(form.fields[0].sharedConfiguration === form.fields[2].sharedConfiguration)
    }
}
