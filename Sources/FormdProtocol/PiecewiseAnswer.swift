import FormdCore
import FormdJSON

/// A `getState` or `submit` response written a piece at a time (its head, then one field
/// each, then its end), so a large one is streamed or counted without ever being built
/// whole. The pieces together are the bytes `MessageWriter.writeResponse` writes for the
/// same result.
public struct PiecewiseAnswer: Sendable {
    public let id: RequestID
    /// A `.state` or a `.submission`.
    public let result: CommandResult
    /// The next piece: 0 the head, 1...fieldPieces a field, then the end.
    private var next = 0
    /// One piece per field: the state's fields, the submission's values.
    private let fieldPieces: Int

    /// `result` must be a `.state` or a `.submission`.
    public init(id: RequestID, result: CommandResult) {
        self.id = id
        self.result = result
        switch result {
        case .state(let s): fieldPieces = s.fields.count
        case .submission(_, let values, _, _): fieldPieces = values.count
        default: preconditionFailure("only a getState or submit answer is written a piece at a time")
        }
    }

    /// The method whose answer this is, for a refusal's message.
    public var method: String {
        if case .state = result { return "getState" }
        return "submit"
    }

    /// Answers of about this size or more are streamed or counted, not built whole.
    public static let largeBytes = 1 << 16

    /// Whether `result` is a `getState` or `submit` answer that may be `largeBytes` or
    /// more: every string it writes counts, unescaped (a look at the counts, far cheaper
    /// than writing it).
    public static func isLarge(_ result: CommandResult) -> Bool {
        switch result {
        case .state(let s): isLarge(s)
        case .submission(_, let values, let withheld, let errors):
            isLarge(items: values.count + withheld.count + errors.count, bytesEach: 8) {
                values.reduce(0) { $0 + $1.field.utf8.count + $1.text.utf8.count }
                    + withheld.reduce(0) { $0 + $1.utf8.count } + errorBytes(errors)
            }
        default: false
        }
    }

    /// Whether a `getState` answer may be `largeBytes` or more: every string a field's
    /// state writes (texts, labels, hints, ids, error messages…), and a field's settings
    /// and flags at the least (about 450 bytes).
    public static func isLarge(_ state: FormSnapshot) -> Bool {
        isLarge(items: state.fields.count, bytesEach: 450) { state.fields.reduce(0) { $0 + stringBytes($1) } }
    }

    /// `items` of at least `bytesEach` bytes, plus their strings' `bytes` (looked at only
    /// when the items alone are not enough).
    private static func isLarge(items: Int, bytesEach: Int, bytes: () -> Int) -> Bool {
        items * bytesEach >= largeBytes || items * bytesEach + bytes() >= largeBytes
    }

    /// The bytes of the strings `FieldEncoder.writeSnapshot` writes for `f`, unescaped.
    private static func stringBytes(_ f: FieldSnapshot) -> Int {
        let a = f.attributes
        var bytes = f.id.utf8.count + (f.text?.utf8.count ?? 0) + f.display.utf8.count
        for s in [a.label, a.placeholder, a.patternHint, a.pattern?.source, a.inputFilter?.source] { bytes += s?.utf8.count ?? 0 }
        for m in a.hints.members { bytes += m.key.utf8.count + m.json.utf8.count }
        for name in f.configuration { bytes += name.utf8.count }
        return bytes + messageBytes(f.validity.errors)
    }

    /// The bytes of the errors' field ids and messages, unescaped, with 24 for each error.
    private static func errorBytes(_ errors: [FieldErrors]) -> Int {
        errors.reduce(0) { $0 + $1.field.utf8.count + messageBytes($1.errors) }
    }

    private static func messageBytes(_ errors: [ValidationError]) -> Int {
        errors.reduce(0) { $0 + 24 + $1.message.utf8.count }
    }

    /// The response's exact size in bytes (without framing), by writing each piece into a
    /// scratch buffer one after the other: nothing is kept.
    public func count() -> Int {
        var scratch = JSONWriter(reservingCapacity: 4096)
        var counter = self
        counter.next = 0
        var total = 0
        while counter.writeNext(to: &scratch) {
            total += scratch.count
            scratch.removeAll()
        }
        return total
    }

    /// True until the answer is written whole.
    public var isWritten: Bool { next > fieldPieces + 1 }

    /// Appends pieces to `w` until at least `bytes` have been appended or the answer is
    /// written whole. False once there was nothing left to write.
    @discardableResult
    public mutating func writeNext(to w: inout JSONWriter, atLeast bytes: Int = 0) -> Bool {
        guard !isWritten else { return false }
        let start = w.count
        repeat {
            switch result {
            case .state(let s): writePiece(next, of: s, to: &w)
            case .submission(let valid, let values, let withheld, let errors):
                writePiece(next, valid: valid, values: values, withheld: withheld, errors: errors, to: &w)
            default: preconditionFailure("checked by init")
            }
            next += 1
        } while !isWritten && w.count - start < bytes
        return true
    }

    private func writePiece(_ i: Int, of state: FormSnapshot, to w: inout JSONWriter) {
        if i == 0 {
            MessageWriter.openResponse(id: id, to: &w)
            w.key("form", first: true); w.writeString(state.form)
            w.key("seq"); w.writeInt(state.seq)
            w.key("firstResponder"); w.writeOptionalString(state.firstResponder)
            w.key("fields"); w.writeRaw("[")
        } else if i <= fieldPieces {
            if i > 1 { w.writeRaw(",") }
            FieldEncoder.writeSnapshot(state.fields[i - 1], to: &w)
        } else {
            w.writeRaw("]")
            w.closeObject()
            w.writeRaw("}")
        }
    }

    /// The pieces of what `ResultEncoder` writes for a `.submission`: its head up to the
    /// values' object, one value each, then the withheld fields and the errors.
    private func writePiece(_ i: Int, valid: Bool, values: [FieldValue], withheld: [String], errors: [FieldErrors],
                            to w: inout JSONWriter) {
        if i == 0 {
            MessageWriter.openResponse(id: id, to: &w)
            w.key("valid", first: true); w.writeBool(valid)
            w.key("values"); w.writeRaw("{")
        } else if i <= fieldPieces {
            if i > 1 { w.writeRaw(",") }
            w.writeString(values[i - 1].field)
            w.writeRaw(":")
            w.writeString(values[i - 1].text)
        } else {
            w.closeObject()
            w.key("withheld"); w.writeStrings(withheld)
            w.key("errors"); FieldEncoder.writeErrors(errors, to: &w)
            w.closeObject()
            w.writeRaw("}")
        }
    }
}
