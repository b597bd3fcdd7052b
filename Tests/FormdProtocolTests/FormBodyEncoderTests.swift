@testable import FormdCore
import FormdJSON
@testable import FormdProtocol
import FormdTestSupport
import XCTest

/// A whole form's state repeats the bytes of a field's settings for the next field that
/// shares them (`FieldEncoder.writeFormBody`): it must give exactly what writing every
/// field on its own gives (`writeSnapshot`, as `fieldAdded` does).
final class FormBodyEncoderTests: XCTestCase {
    /// The body as writing each field alone gives it.
    func fieldByField(_ s: FormSnapshot) -> [UInt8] {
        var w = JSONWriter()
        w.key("firstResponder"); w.writeOptionalString(s.firstResponder)
        w.key("fields"); w.writeRaw("[")
        for (i, f) in s.fields.enumerated() {
            if i > 0 { w.writeRaw(",") }
            FieldEncoder.writeSnapshot(f, to: &w)
        }
        w.writeRaw("]")
        return w.bytes
    }

    func body(_ s: FormSnapshot) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 1)
        FieldEncoder.writeFormBody(s, to: &w)
        return w.bytes
    }

    func testRunsOfAlikeFieldsWriteWhatEachFieldAloneWrites() throws {
        var label = FieldOptions()
        label.label = "Café"  // composed
        var decomposed = FieldOptions()
        decomposed.label = "Cafe\u{301}"  // canonically equal to the one above, other bytes
        var required = FieldOptions()
        required.required = true
        required.minLength = 3
        var secure = FieldOptions()
        secure.secure = true
        var texts = FieldOptions()
        texts.text = "tab\tquote\"é 👍"
        let specs = [
            FieldSpec(id: "a"), FieldSpec(id: "b"), FieldSpec(id: "c", options: label), FieldSpec(id: "d", options: label),
            FieldSpec(id: "g"), FieldSpec(id: "e", options: decomposed), FieldSpec(id: "f", options: decomposed),
            FieldSpec(id: "h", options: required), FieldSpec(id: "i", options: required), FieldSpec(id: "j", options: secure),
            FieldSpec(id: "k", options: secure), FieldSpec(id: "l", options: texts), FieldSpec(id: "m", options: texts),
            FieldSpec(id: "n", configuration: ["email"]), FieldSpec(id: "o", configuration: ["email"]),
            FieldSpec(id: "customer.address.line000001"), FieldSpec(id: "\u{1F}\"\\"),
        ]
        var engine = FormEngine()
        _ = try engine.perform(.defineForm(fields: specs, presets: [:]))
        _ = try engine.perform(.setText(field: "h", text: "x"))
        _ = try engine.perform(.setText(field: "j", text: "hidden"))
        _ = try engine.perform(.demandFocus(field: "b", demand: .become))
        _ = try engine.perform(.demandFocus(field: "i", demand: .become))
        _ = try engine.perform(.insertText(field: "i", text: "ok"))
        _ = try engine.perform(.select(field: "l", start: 1, end: 3))
        _ = try engine.perform(.setEnabled(field: "m", false))
        _ = try engine.perform(.demandFocus(field: "m", demand: .become))
        let form = try XCTUnwrap(engine.form(FormEngine.defaultForm))
        for includeSecrets in [false, true] {
            let s = form.snapshot(includeSecrets: includeSecrets)
            XCTAssertTrue(s.fields[0].sharesSettings(with: s.fields[1]))
            XCTAssertTrue(s.fields[2].sharesSettings(with: s.fields[3]))
            XCTAssertFalse(s.fields[3].sharesSettings(with: s.fields[4]))
            XCTAssertTrue(s.fields[5].sharesSettings(with: s.fields[6]))
            XCTAssertEqual(body(s), fieldByField(s))
            XCTAssertEqual(body(FormSnapshot(form: s.form, seq: s.seq, firstResponder: nil, fields: [])), fieldByField(
                FormSnapshot(form: s.form, seq: s.seq, firstResponder: nil, fields: [])))
        }
        // The labels of e and f are written as given, not as the equal label of c and d
        // (held apart by g: a field configured like its neighbour shares its settings).
        let bytes = body(form.snapshot(includeSecrets: false))
        XCTAssertEqual(occurrences(of: Array("\"label\":\"Cafe\u{301}\"".utf8), in: bytes), 2)
        XCTAssertEqual(occurrences(of: Array("\"label\":\"Caf\u{E9}\"".utf8), in: bytes), 2)
    }

    /// A field's state written from the constant for an empty untouched field is what its
    /// members write; and a field's settings kept from the field before (`RecentSettings`)
    /// are what writing them gives, however fields alike and unlike follow each other.
    func testShortcutsWriteWhatTheMembersWrite() throws {
        var label = FieldOptions()
        label.label = "L"
        var secure = FieldOptions()
        secure.secure = true
        var texts = FieldOptions()
        texts.text = "t"
        let specs = [FieldSpec(id: "a"), FieldSpec(id: "b"), FieldSpec(id: "c", options: label), FieldSpec(id: "d", options: secure),
                     FieldSpec(id: "e", options: texts), FieldSpec(id: "f"), FieldSpec(id: "g", configuration: ["email"])]
        var engine = FormEngine()
        _ = try engine.perform(.defineForm(fields: specs, presets: [:]))
        var form = try XCTUnwrap(engine.form(FormEngine.defaultForm))
        let fresh = form.snapshot(includeSecrets: false).fields
        XCTAssertEqual(fresh.map(\.isEmptyAndUntouched), [true, true, true, false, false, true, true], "d is masked, e has a text")
        _ = try engine.perform(.demandFocus(field: "a", demand: .become))
        _ = try engine.perform(.demandFocus(field: "b", demand: .become))
        _ = try engine.perform(.insertText(field: "c", text: "x"))
        _ = try engine.perform(.delete(field: "c", direction: .backward, unit: .character))
        _ = try engine.perform(.setText(field: "e", text: ""))
        form = try XCTUnwrap(engine.form(FormEngine.defaultForm))
        let used = form.snapshot(includeSecrets: true).fields
        XCTAssertEqual(used.map(\.isEmptyAndUntouched), [false, false, true, true, false, true, true],
                       "a visited and touched, b the responder, c emptied again, d's empty secret shown, e dirty")
        for f in fresh + used {
            var shortcut = JSONWriter(), members = JSONWriter()
            FieldEncoder.writeState(f, to: &shortcut)
            FieldEncoder.writeStateMembers(f, to: &members)
            XCTAssertEqual(shortcut.bytes, members.bytes, f.id)
        }
        var rng = SplitMix64(seed: 0x5E7)
        for _ in 0..<200 {
            let f = (fresh + used)[rng.next(below: fresh.count + used.count)]
            var kept = JSONWriter(), direct = JSONWriter()
            FieldEncoder.writeSnapshot(f, to: &kept)
            direct.writeString(f.id, after: "{\"id\":")
            FieldEncoder.writeAttributes(f.attributes, configuration: f.configuration, to: &direct)
            FieldEncoder.writeState(f, to: &direct)
            XCTAssertEqual(kept.bytes, direct.bytes, f.id)
        }
    }

    func occurrences(of needle: [UInt8], in bytes: [UInt8]) -> Int {
        (0...(bytes.count - needle.count)).filter { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }.count
    }
}
