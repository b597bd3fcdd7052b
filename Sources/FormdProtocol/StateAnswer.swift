import FormdCore
import FormdJSON

/// A `getState` response written a piece at a time (its head, then one field each, then its
/// end), so a large one is streamed or counted without ever being built whole. The pieces
/// together are the bytes `MessageWriter.writeResponse` writes for the same result.
public struct StateAnswer: Sendable {
    public let id: RequestID
    public let state: FormSnapshot
    /// The next piece: 0 the head, 1...fields.count a field, then the end.
    private var next = 0

    public init(id: RequestID, state: FormSnapshot) {
        self.id = id
        self.state = state
    }

    /// Answers of about this size or more are streamed or counted, not built whole.
    public static let largeBytes = 1 << 16

    /// Whether the answer may be `largeBytes` or more: every string a field's state writes
    /// (texts, labels, hints, ids, error messages…), and a field's settings and flags at
    /// the least (about 450 bytes). A look at each field's counts, far cheaper than writing it.
    public static func isLarge(_ state: FormSnapshot) -> Bool {
        if state.fields.count * 450 >= largeBytes { return true }
        var bytes = 0
        for f in state.fields { bytes += stringBytes(f) }
        return bytes + state.fields.count * 450 >= largeBytes
    }

    /// The bytes of the strings `FieldEncoder.writeSnapshot` writes for `f`, unescaped.
    private static func stringBytes(_ f: FieldSnapshot) -> Int {
        let a = f.attributes
        var bytes = f.id.utf8.count + (f.text?.utf8.count ?? 0) + f.display.utf8.count
        for s in [a.label, a.placeholder, a.patternHint, a.pattern?.source, a.inputFilter?.source] { bytes += s?.utf8.count ?? 0 }
        for m in a.hints.members { bytes += m.key.utf8.count + m.json.utf8.count }
        for name in f.configuration { bytes += name.utf8.count }
        for e in f.validity.errors { bytes += e.message.utf8.count }
        return bytes
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
    public var isWritten: Bool { next > state.fields.count + 1 }

    /// Appends pieces to `w` until at least `bytes` have been appended or the answer is
    /// written whole. False once there was nothing left to write.
    @discardableResult
    public mutating func writeNext(to w: inout JSONWriter, atLeast bytes: Int = 0) -> Bool {
        guard !isWritten else { return false }
        let start = w.count
        repeat {
            writePiece(next, to: &w)
            next += 1
        } while !isWritten && w.count - start < bytes
        return true
    }

    private func writePiece(_ i: Int, to w: inout JSONWriter) {
        if i == 0 {
            MessageWriter.openResponse(id: id, to: &w)
            w.key("form", first: true); w.writeString(state.form)
            w.key("seq"); w.writeInt(state.seq)
            w.key("firstResponder"); w.writeOptionalString(state.firstResponder)
            w.key("fields"); w.writeRaw("[")
        } else if i <= state.fields.count {
            if i > 1 { w.writeRaw(",") }
            FieldEncoder.writeSnapshot(state.fields[i - 1], to: &w)
        } else {
            w.writeRaw("]")
            w.closeObject()
            w.writeRaw("}")
        }
    }
}
