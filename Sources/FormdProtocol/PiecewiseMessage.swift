import FormdCore
import FormdJSON

/// A message written a piece at a time (its head, then one item each, then its end), so a
/// large one is streamed or counted without ever being built whole: a large answer
/// (`PiecewiseAnswer`) or event (`PiecewiseEvent`).
public protocol PiecewiseMessage: Sendable {
    /// The items between the head and the end (one per field or value).
    var items: Int { get }
    /// The next piece: 0 the head, 1...items an item, then the end.
    var nextPiece: Int { get set }
    /// Appends piece `i` to `w`.
    func writePiece(_ i: Int, to w: inout JSONWriter)
}

extension PiecewiseMessage {
    /// True until the message is written whole.
    public var isWritten: Bool { nextPiece > items + 1 }

    /// The message's exact size in bytes (without framing), by writing each piece into a
    /// scratch buffer one after the other: nothing is kept.
    public func count() -> Int {
        var scratch = JSONWriter(reservingCapacity: 4096)
        var counter = self
        counter.nextPiece = 0
        var total = 0
        while counter.writeNext(to: &scratch) {
            total += scratch.count
            scratch.removeAll()
        }
        return total
    }

    /// Appends pieces to `w` until at least `bytes` have been appended or the message is
    /// written whole. False once there was nothing left to write.
    @discardableResult
    public mutating func writeNext(to w: inout JSONWriter, atLeast bytes: Int = 0) -> Bool {
        guard !isWritten else { return false }
        let start = w.count
        repeat {
            writePiece(nextPiece, to: &w)
            nextPiece += 1
        } while !isWritten && w.count - start < bytes
        return true
    }
}

extension JSONWriter {
    /// Piece `i` of a message that carries `values` one at a time: 0 its `head` and the
    /// values' opening; 1...values.count a value (`"id":"text"`); then the values' end, the
    /// `withheld` ids and its `end`.
    mutating func writeValuesPiece(_ i: Int, _ values: [FieldValue], withheld: [String],
                                   head: (inout JSONWriter) -> Void, end: (inout JSONWriter) -> Void) {
        if i == 0 {
            head(&self)
            key("values"); writeRaw("{")
        } else if i <= values.count {
            if i > 1 { writeRaw(",") }
            writeString(values[i - 1].field)
            writeRaw(":")
            writeString(values[i - 1].text)
        } else {
            closeObject()
            key("withheld"); writeStrings(withheld)
            end(&self)
        }
    }
}

extension FormSnapshot {
    /// Piece `i` of a message that carries this state a field at a time: 0 its `head` (up
    /// to the state's members), the responder and the fields' opening; 1...fields.count a
    /// field; then the fields' end and the message's (`]}}`).
    func writePiece(_ i: Int, to w: inout JSONWriter, head: (inout JSONWriter) -> Void) {
        if i == 0 {
            head(&w)
            w.key("firstResponder"); w.writeOptionalString(firstResponder)
            w.key("fields"); w.writeRaw("[")
        } else if i <= fields.count {
            if i > 1 { w.writeRaw(",") }
            FieldEncoder.writeSnapshot(fields[i - 1], to: &w)
        } else {
            w.writeRaw("]}}")
        }
    }
}
