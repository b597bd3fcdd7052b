@testable import FormdCore
import FormdJSON
@testable import FormdProtocol
import XCTest

/// A `submitted` event or a whole form's state written a piece at a time (`PiecewiseEvent`,
/// streamed or counted) must be exactly the event written whole, and its count its length;
/// and what a `submit` or `reset` would emit, counted before it is carried out
/// (`Form.submittedEvent`, `Form.resetEvent`), must be exactly what it emits.
final class PiecewiseEventTests: XCTestCase {
    /// A form named `name` of `fields` fields: secure ones, ones with escaped and non-ASCII
    /// initial texts, labels, patterns; some edited, one focused.
    func engine(fields: Int, name: String = FormEngine.defaultForm) throws -> FormEngine {
        var secure = FieldOptions()
        secure.secure = true
        secure.text = "initial secret"
        var texts = FieldOptions()
        texts.text = "tab\tquote\"é 👍\r\n"
        texts.label = "Café"
        var pattern = FieldOptions()
        pattern.pattern = .some(try FieldPattern("[a-z]*"))
        pattern.required = true
        pattern.text = "abc"
        let specs = (0..<fields).map { i in
            FieldSpec(id: "f\(i)", options: [secure, texts, pattern, FieldOptions()][i % 4])
        }
        var engine = FormEngine()
        _ = try engine.perform(.defineForm(fields: specs, presets: [:]), on: name)
        for i in stride(from: 0, to: fields, by: 3) { _ = try engine.perform(.setText(field: "f\(i)", text: "typed é \(i)"), on: name) }
        if fields > 1 { _ = try engine.perform(.demandFocus(field: "f1", demand: .become), on: name) }
        return engine
    }

    func assertPiecesAreTheWholeEvent(_ record: EventRecord, items: Int, file: StaticString = #filePath, line: UInt = #line) {
        var whole = JSONWriter()
        EventEncoder.write(record, to: &whole)
        for step in [0, 1, 500, 1 << 16] {
            var event = PiecewiseEvent(record)
            var pieces = JSONWriter()
            var writes = 0
            while event.writeNext(to: &pieces, atLeast: step) { writes += 1 }
            XCTAssertEqual(pieces.bytes, whole.bytes, "pieces of at least \(step) bytes", file: file, line: line)
            XCTAssertTrue(event.isWritten, file: file, line: line)
            if step == 0 { XCTAssertEqual(writes, items + 2, "a head, each item, an end", file: file, line: line) }
        }
        XCTAssertEqual(PiecewiseEvent(record).count(), whole.count, file: file, line: line)
    }

    func testResetAndDefinitionPiecesAreTheWholeEvent() throws {
        for fields in [0, 1, 2, 7, 300] {
            for name in [FormEngine.defaultForm, "a \"form\""] {
                var engine = try engine(fields: fields, name: name)
                for encoding in [PositionEncoding.character, .utf8, .utf16, .utf32] {
                    let preview = try XCTUnwrap(engine.form(name)).resetEvent(encoding: encoding)
                    var copy = engine
                    let events = try copy.perform(.reset, on: name, encoding: encoding).events
                    XCTAssertEqual(events, [preview], "\(fields) fields, \(encoding): the preview is the event")
                    assertPiecesAreTheWholeEvent(preview, items: fields)
                }
                _ = try engine.perform(.reset, on: name)
                let state = try XCTUnwrap(engine.form(name)).snapshot(includeSecrets: false)
                assertPiecesAreTheWholeEvent(EventRecord(form: name, seq: 12, event: .formDefined(state)), items: fields)
            }
        }
    }

    func testSubmittedPiecesAreTheWholeEvent() throws {
        for fields in [0, 1, 2, 7, 300] {
            var engine = try engine(fields: fields)
            // Valid only once the pattern fields match and the required ones are filled.
            for i in stride(from: 2, to: fields, by: 4) { _ = try engine.perform(.setText(field: "f\(i)", text: "ok")) }
            if fields > 0 { _ = try engine.perform(.setText(field: "f0", text: "secret")) }
            let preview = try XCTUnwrap(try XCTUnwrap(engine.form(FormEngine.defaultForm)).submittedEvent())
            let events = try engine.perform(.submit(includeSecrets: true)).events
            XCTAssertEqual(events.last, preview, "\(fields) fields: the preview is the event, its seq after the focus events")
            assertPiecesAreTheWholeEvent(preview, items: fields - (fields + 3) / 4)
            guard case .submitted(let values, let withheld) = preview.event else { return XCTFail("not submitted") }
            XCTAssertFalse(values.contains { $0.text.contains("secret") }, "a secure field's text never")
            XCTAssertEqual(withheld.count, (fields + 3) / 4)
        }
    }

    func testAnInvalidFormSubmitsNothing() throws {
        var engine = try engine(fields: 4)
        _ = try engine.perform(.setText(field: "f2", text: "NOT LOWER"))
        XCTAssertNil(try XCTUnwrap(engine.form(FormEngine.defaultForm)).submittedEvent())
        XCTAssertFalse(try engine.perform(.submit(includeSecrets: false)).events.contains {
            if case .submitted = $0.event { true } else { false }
        })
    }

    func testLargeMeansAboutSixtyFourKibibytesOrMore() throws {
        var engine = try engine(fields: 2)
        let form = { try XCTUnwrap(engine.form(FormEngine.defaultForm)) }
        XCTAssertFalse(PiecewiseEvent.isLarge(try form().resetEvent(encoding: .character)))
        XCTAssertFalse(PiecewiseEvent.isLarge(try XCTUnwrap(try form().submittedEvent())))
        _ = try engine.perform(.setText(field: "f1", text: String(repeating: "x", count: 70_000)))
        XCTAssertTrue(PiecewiseEvent.isLarge(try XCTUnwrap(try form().submittedEvent())), "a long text alone makes it large")
        XCTAssertFalse(PiecewiseEvent.isLarge(try form().resetEvent(encoding: .character)), "reset drops it")
        var long = FieldOptions()
        long.text = String(repeating: "y", count: 70_000)
        _ = try engine.perform(.configureField("f1", options: long, configuration: nil))
        XCTAssertTrue(PiecewiseEvent.isLarge(try form().resetEvent(encoding: .character)), "a long initial text makes it large")
        XCTAssertFalse(PiecewiseEvent.isLarge(EventRecord(form: "f", seq: 1, event: .fieldRemoved(field: String(repeating: "z", count: 70_000)))),
                       "other events are never streamed")
    }
}
