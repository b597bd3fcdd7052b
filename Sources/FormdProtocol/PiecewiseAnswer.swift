import FormdCore
import FormdJSON

/// A `getState` or `submit` response written a piece at a time (its head, then one field
/// each, then its end), so a large one is streamed or counted without ever being built
/// whole. The pieces together are the bytes `MessageWriter.writeResponse` writes for the
/// same result.
public struct PiecewiseAnswer: PiecewiseMessage {
    public let id: RequestID
    /// A `.state` or a `.submission`.
    public let result: CommandResult
    public var nextPiece = 0
    /// One item per field: the state's fields, the submission's values.
    public let items: Int

    /// `result` must be a `.state` or a `.submission`.
    public init(id: RequestID, result: CommandResult) {
        self.id = id
        self.result = result
        switch result {
        case .state(let s): items = s.fields.count
        case .submission(_, let values, _, _): items = values.count
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
                stringBytes(values: values, withheld: withheld) + errorBytes(errors)
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
    static func isLarge(items: Int, bytesEach: Int, bytes: () -> Int) -> Bool {
        items * bytesEach >= largeBytes || items * bytesEach + bytes() >= largeBytes
    }

    /// The bytes of the strings `FieldEncoder.writeSnapshot` writes for `f`, unescaped.
    static func stringBytes(_ f: FieldSnapshot) -> Int {
        let a = f.attributes
        var bytes = f.id.utf8.count + (f.text?.utf8.count ?? 0) + f.display.utf8.count
        for s in [a.label, a.placeholder, a.patternHint, a.pattern?.source, a.inputFilter?.source] { bytes += s?.utf8.count ?? 0 }
        for m in a.hints.members { bytes += m.key.utf8.count + m.json.utf8.count }
        for name in f.configuration { bytes += name.utf8.count }
        return bytes + messageBytes(f.validity.errors)
    }

    /// The bytes of the values' ids and texts and of the withheld ids, unescaped.
    static func stringBytes(values: [FieldValue], withheld: [String]) -> Int {
        values.reduce(0) { $0 + $1.field.utf8.count + $1.text.utf8.count } + withheld.reduce(0) { $0 + $1.utf8.count }
    }

    /// The bytes of the errors' field ids and messages, unescaped, with 24 for each error.
    private static func errorBytes(_ errors: [FieldErrors]) -> Int {
        errors.reduce(0) { $0 + $1.field.utf8.count + messageBytes($1.errors) }
    }

    private static func messageBytes(_ errors: [ValidationError]) -> Int {
        errors.reduce(0) { $0 + 24 + $1.message.utf8.count }
    }

    public func writePiece(_ i: Int, to w: inout JSONWriter) {
        switch result {
        case .state(let s): writePiece(i, of: s, to: &w)
        case .submission(let valid, let values, let withheld, let errors):
            writePiece(i, valid: valid, values: values, withheld: withheld, errors: errors, to: &w)
        default: preconditionFailure("checked by init")
        }
    }

    private func writePiece(_ i: Int, of state: FormSnapshot, to w: inout JSONWriter) {
        state.writePiece(i, to: &w) { w in
            MessageWriter.openResponse(id: id, to: &w)
            w.key("form", first: true); w.writeString(state.form)
            w.key("seq"); w.writeInt(state.seq)
        }
    }

    /// The pieces of what `ResultEncoder` writes for a `.submission`: its head up to the
    /// values' object, one value each, then the withheld fields and the errors.
    private func writePiece(_ i: Int, valid: Bool, values: [FieldValue], withheld: [String], errors: [FieldErrors],
                            to w: inout JSONWriter) {
        w.writeValuesPiece(i, values, withheld: withheld) { w in
            MessageWriter.openResponse(id: id, to: &w)
            w.key("valid", first: true); w.writeBool(valid)
        } end: { w in
            w.key("errors"); FieldEncoder.writeErrors(errors, to: &w)
            w.writeRaw("}}")
        }
    }
}
