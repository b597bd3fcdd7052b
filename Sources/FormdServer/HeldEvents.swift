import FormdCore
import FormdJSON
import FormdProtocol

/// The stdio server's event sink: a command's events stay records, marked with where in
/// the output they go, and are handed with that output to the burst's second thread
/// (`HeldOutput`), which encodes them; without a burst, the server encodes them as it
/// flushes. Encoding and freeing events would be about a third of the serving thread's
/// work in a burst of keystrokes, and a large event is streamed in its place, never built whole.
/// A compact response is held too, as a value (`HeldResponse`), and written with them.
struct HeldEvents: EventSink {
    var records: [EventRecord] = []
    private var marks: [HeldOutput.Mark] = []
    private var responses: [HeldResponse] = []

    /// Events and responses held so far.
    var count: Int { records.count + responses.count }
    /// About the bytes they take (`EventRecord.heldBytes`), for `--max-pending-output`.
    private(set) var bytes = 0

    /// Drops what is held (output that could not be written), keeping the room.
    mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        marks.removeAll(keepingCapacity: true)
        responses.removeAll(keepingCapacity: true)
        bytes = 0
    }

    /// Whether `respond` holds the responses it can: the burst's thread has time to spare
    /// for them (`StdioServer`).
    var holdsResponses = false

    /// Holds a response of plain bits (`HeldResponse`) while `holdsResponses`, to go at the
    /// end of `w`; any other is written at once.
    @inline(__always)
    mutating func respond(id: RequestID, _ result: CommandResult, framing: Framing, at w: inout JSONWriter) -> Bool {
        guard holdsResponses,
              let response = HeldResponse(id: id, result: result, framing: framing, offset: w.count, marksBefore: marks.count) else { return false }
        responses.append(response)
        bytes += HeldEvents.responseBytes
        return true
    }

    /// About the most bytes a held response takes written (an id of 15 bytes, escaped).
    private static let responseBytes = 192

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

    /// The output written to `w` and the events and responses held since the last call, in
    /// order; `w` is left empty. `spare`, an emptied `HeldStretch`, lends its room to what is
    /// held next.
    mutating func take(_ w: inout JSONWriter, reusing spare: consuming HeldStretch?) -> HeldStretch {
        // The next stretch goes where the spare's was: fresh memory each time would cost
        // the serving thread a page fault every few kilobytes. Without one, it gets room
        // for as much as this stretch took (growing mid-burst copies a list whole).
        var next = spare ?? HeldStretch(output: HeldOutput(bytes: JSONWriter(reservingCapacity: w.capacity)))
        if next.output.records.capacity < records.capacity { next.output.records.reserveCapacity(records.capacity) }
        if next.output.marks.capacity < marks.capacity { next.output.marks.reserveCapacity(marks.capacity) }
        if next.responses.capacity < responses.capacity { next.responses.reserveCapacity(responses.capacity) }
        swap(&next.output.bytes, &w)
        swap(&next.output.records, &records)
        swap(&next.output.marks, &marks)
        swap(&next.responses, &responses)
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
