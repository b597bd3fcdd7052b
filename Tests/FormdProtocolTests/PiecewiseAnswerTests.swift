@testable import FormdCore
import FormdJSON
@testable import FormdProtocol
import XCTest

/// A `getState` or `submit` answer written a piece at a time (`PiecewiseAnswer`, streamed or counted) must
/// be exactly the response written whole, and its count exactly its length.
final class PiecewiseAnswerTests: XCTestCase {
    func snapshot(fields: Int) throws -> FormSnapshot {
        var secure = FieldOptions()
        secure.secure = true
        var texts = FieldOptions()
        texts.text = "tab\tquote\"é 👍"
        texts.label = "Café"
        let specs = (0..<fields).map { i in
            FieldSpec(id: "f\(i)", options: i % 3 == 0 ? secure : i % 3 == 1 ? texts : FieldOptions())
        }
        var engine = FormEngine()
        _ = try engine.perform(.defineForm(fields: specs, presets: [:]))
        if fields > 0 {
            _ = try engine.perform(.setText(field: "f0", text: "hidden"))
            _ = try engine.perform(.demandFocus(field: "f0", demand: .become))
        }
        return try XCTUnwrap(engine.form(FormEngine.defaultForm)).snapshot(includeSecrets: false)
    }

    func testPiecesAreTheWholeResponseAndTheCountItsLength() throws {
        for fields in [0, 1, 2, 7, 300] {
            let state = try snapshot(fields: fields)
            let id = RequestID.string("q\"1")
            var whole = JSONWriter()
            MessageWriter.writeResponse(id: id, .state(state), to: &whole)
            for step in [0, 1, 500, 1 << 16] {
                var answer = PiecewiseAnswer(id: id, result: .state(state))
                var pieces = JSONWriter()
                var writes = 0
                while answer.writeNext(to: &pieces, atLeast: step) { writes += 1 }
                XCTAssertEqual(pieces.bytes, whole.bytes, "\(fields) fields, pieces of at least \(step) bytes")
                XCTAssertTrue(answer.isWritten)
                if step == 0 { XCTAssertEqual(writes, fields + 2, "a head, each field, an end") }
            }
            XCTAssertEqual(PiecewiseAnswer(id: id, result: .state(state)).count(), whole.count, "\(fields) fields")
        }
    }

    func testSubmitPiecesAreTheWholeResponseAndTheCountItsLength() throws {
        for fields in [0, 1, 2, 7, 300] {
            var engine = FormEngine()
            _ = try engine.perform(.defineForm(fields: (0..<fields).map { FieldSpec(id: "f\($0)", options: FieldOptions()) }, presets: [:]))
            for i in stride(from: 0, to: fields, by: 2) { _ = try engine.perform(.setText(field: "f\(i)", text: "tab\tquote\"é 👍 \(i)")) }
            let form = try XCTUnwrap(engine.form(FormEngine.defaultForm))
            for submission in [form.submission(includeSecrets: false), form.submission(includeSecrets: true)] {
                let id = RequestID.string("7")
                var whole = JSONWriter()
                MessageWriter.writeResponse(id: id, submission, to: &whole)
                for step in [0, 1, 500] {
                    var answer = PiecewiseAnswer(id: id, result: submission)
                    var pieces = JSONWriter()
                    var writes = 0
                    while answer.writeNext(to: &pieces, atLeast: step) { writes += 1 }
                    XCTAssertEqual(pieces.bytes, whole.bytes, "\(fields) fields, pieces of at least \(step) bytes")
                    if step == 0 { XCTAssertEqual(writes, fields + 2, "a head, each value, an end") }
                }
                XCTAssertEqual(PiecewiseAnswer(id: id, result: submission).count(), whole.count)
                XCTAssertFalse(PiecewiseAnswer.isLarge(submission), "\(whole.count) bytes")
            }
        }
        var engine = FormEngine()
        _ = try engine.perform(.defineForm(fields: [FieldSpec(id: "a", options: FieldOptions())], presets: [:]))
        _ = try engine.perform(.setText(field: "a", text: String(repeating: "x", count: 70_000)))
        XCTAssertTrue(PiecewiseAnswer.isLarge(try XCTUnwrap(engine.form(FormEngine.defaultForm)).submission(includeSecrets: false)),
                      "a long text alone makes it large")
    }

    func testLargeMeansAboutSixtyFourKibibytesOrMore() throws {
        XCTAssertFalse(PiecewiseAnswer.isLarge(try snapshot(fields: 10)))
        XCTAssertTrue(PiecewiseAnswer.isLarge(try snapshot(fields: 300)))
        var state = try snapshot(fields: 1)
        state.fields[0].text = String(repeating: "x", count: 70_000)
        XCTAssertTrue(PiecewiseAnswer.isLarge(state), "a long text alone makes it large")
    }

    /// Every string a field's state writes counts, not only its text: a few fields with
    /// long labels (or hints, ids, pattern hints…) make an answer as large as long texts do.
    func testEveryStringOfAFieldCountsTowardsLarge() throws {
        let long = String(repeating: "L", count: 70_000)
        let settings: [(String, (inout FieldAttributes) -> Void)] = [
            ("label", { $0.label = long }),
            ("placeholder", { $0.placeholder = long }),
            ("patternHint", { $0.patternHint = long }),
            ("hints", { $0.hints = FieldHints([.init(key: "k", json: "\"" + long + "\"")]) }),
        ]
        for (name, set) in settings {
            var state = try snapshot(fields: 1)
            set(&state.fields[0].attributes)
            XCTAssertGreaterThan(PiecewiseAnswer(id: .string("1"), result: .state(state)).count(), PiecewiseAnswer.largeBytes, name)
            XCTAssertTrue(PiecewiseAnswer.isLarge(state), "a long \(name) makes it large")
        }
        var state = try snapshot(fields: 1)
        state.fields[0].id = long
        XCTAssertTrue(PiecewiseAnswer.isLarge(state), "a long id makes it large")
        state = try snapshot(fields: 1)
        state.fields[0].configuration = [long]
        XCTAssertTrue(PiecewiseAnswer.isLarge(state), "a long preset name makes it large")
        state = try snapshot(fields: 1)
        state.fields[0].validity = Validity(errors: [ValidationError(.patternMismatch, long)])
        XCTAssertTrue(PiecewiseAnswer.isLarge(state), "a long error message makes it large")
    }
}
