import FormdCore
import FormdJSON
import FormdProtocol

/// The stdio server's event sink: a command's events stay records, marked with where in
/// the output they go, and are handed with that output to the burst's second thread
/// (`HeldOutput`), which encodes them; without a burst, the server encodes them as it
/// flushes. Encoding and freeing events would be about a third of the serving thread's
/// work in a burst of keystrokes, and a large event is streamed in its place, never built whole.
struct HeldEvents: EventSink {
    var records: [EventRecord] = []
    private var marks: [HeldOutput.Mark] = []

    /// Events held so far.
    var count: Int { records.count }
    /// About the bytes they take (`EventRecord.heldBytes`), for `--max-pending-output`.
    private(set) var bytes = 0

    /// Drops what is held (output that could not be written), keeping the room.
    mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        marks.removeAll(keepingCapacity: true)
        bytes = 0
    }

    /// Holds the events `client` gets (of a client that takes only some, those its rules
    /// let through), marked to go at the end of `w`.
    @inline(__always)
    mutating func emitted(from start: Int, form name: String, for client: inout ClientState, to w: inout JSONWriter) {
        switch client.subscription.reach(name) {
        case .everything:
            break
        case .some:
            records.keepAdmitted(from: start, by: client.subscription)
            if records.count == start { return }
        case .nothing:
            records.removeSubrange(start...)
            return
        }
        marks.append(HeldOutput.Mark(offset: w.count, end: records.count, textSync: client.textSync, framing: client.framing))
        bytes += records.heldBytes(from: start)
    }

    /// The output written to `w` and the events held since the last call, in order; `w`
    /// is left empty. `spare`, an emptied `HeldOutput`, lends its room to what is held next.
    mutating func take(_ w: inout JSONWriter, reusing spare: consuming HeldOutput?) -> HeldOutput {
        // The next stretch goes where the spare's was: fresh memory each time would cost
        // the serving thread a page fault every few kilobytes. Without one, it gets room
        // for as much as this stretch took (growing mid-burst copies a list whole).
        var next = spare ?? HeldOutput(bytes: JSONWriter(reservingCapacity: w.capacity))
        if next.records.capacity < records.capacity { next.records.reserveCapacity(records.capacity) }
        if next.marks.capacity < marks.capacity { next.marks.reserveCapacity(marks.capacity) }
        swap(&next.bytes, &w)
        swap(&next.records, &records)
        swap(&next.marks, &marks)
        bytes = 0
        return next
    }
}

extension Array where Element == EventRecord {
    /// Drops the records from `start` on that `subscription` does not admit, in order.
    mutating func keepAdmitted(from start: Int, by subscription: Subscription) {
        var kept = start
        for i in start..<count where subscription.admits(self[i]) {
            if i != kept { swapAt(i, kept) }
            kept += 1
        }
        removeSubrange(kept...)
    }
}
