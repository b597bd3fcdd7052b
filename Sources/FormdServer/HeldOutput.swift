import FormdCore
import FormdJSON
import FormdProtocol

/// A stretch of a burst's output with its events still records: the serving thread wrote
/// the responses (and anything else) to `bytes` and marked where each command's events
/// go; the burst thread (`BurstIO`) writes the events there (`write(to:flushingAt:)`) and frees
/// them. Encoding and freeing events would be about a third of the serving thread's work
/// in a burst of keystrokes; given to the burst thread, it balances the two.
struct HeldOutput: Sendable {
    /// Records up to `end` (from the previous mark's) go before `bytes[offset...]`.
    struct Mark: Sendable {
        let offset: Int
        let end: Int
        let textSync: TextSync
        let framing: Framing
    }

    var bytes: JSONWriter
    var records: [EventRecord] = []
    var marks: [Mark] = []

    /// Empties it for another stretch, keeping the room its lists and bytes took.
    mutating func removeAll() {
        bytes.removeAll()
        records.removeAll(keepingCapacity: true)
        marks.removeAll(keepingCapacity: true)
    }

    /// Appends the output in order to `out`, each of `responses` (held as values, in order)
    /// written in its place, flushing whenever `threshold` bytes wait, and frees the
    /// records as it writes them: the list is left empty.
    mutating func write(to out: inout OutputChannel, responses: [HeldResponse] = [], flushingAt threshold: Int) {
        var from = 0, next = 0, answered = 0
        var seqs = DecimalCounter()
        // Each record freed once written, where it lies, and the list emptied without a
        // second pass over it (`forgetFreed`); else the list is emptied the ordinary way.
        let freeing = records.canForgetFreed()
        /// Writes the bytes up to `offset`.
        func copy(upTo offset: Int) {
            if offset > from { bytes.withUnsafeBytes { out.writer.writeRaw(UnsafeRawBufferPointer(rebasing: $0[from..<offset])) } }
            from = offset
        }
        /// Writes the responses that go before the events of mark `index` (all that are left
        /// when it is past the last), each after the bytes before it.
        func respond(before index: Int) {
            while answered < responses.count && responses[answered].marksBefore <= index {
                copy(upTo: responses[answered].offset)
                responses[answered].write(to: &out.writer)
                answered += 1
            }
        }
        for (index, mark) in marks.enumerated() {
            respond(before: index)
            copy(upTo: mark.offset)
            records.forEachInPlace(next..<mark.end, freeing: freeing) { record in
                out.writeEvent(record, textSync: mark.textSync, framing: mark.framing, seqs: &seqs, flushingAt: threshold)
            }
            next = mark.end
            if out.pendingBytes >= threshold { out.flush() }
        }
        respond(before: marks.count)
        copy(upTo: bytes.count)
        if freeing {
            // Every record is behind a mark; any that were not would be freed here.
            records.forEachInPlace(next..<records.count, freeing: true) { _ in }
            records.forgetFreed()
        } else {
            records.removeAll(keepingCapacity: true)
        }
    }
}
