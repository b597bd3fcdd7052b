import FormdCore
import FormdJSON
import FormdProtocol

/// A stretch of a burst's output with its events still records: the serving thread wrote
/// the responses (and anything else) to `bytes` and marked where each command's events
/// go; the reading thread writes the events there (`write(to:flushingAt:)`) and frees
/// them. Encoding and freeing events is about a third of the serving thread's work in a
/// burst of keystrokes, and the reading thread has room for it.
struct HeldOutput: Sendable {
    /// Records up to `end` (from the previous mark's) go before `bytes[offset...]`.
    struct Mark: Sendable {
        let offset: Int
        let end: Int
        let textSync: TextSync
    }

    var bytes: JSONWriter
    var records: [EventRecord] = []
    var marks: [Mark] = []

    /// Appends the output in order to `out`, flushing it whenever `threshold` bytes wait.
    mutating func write(to out: inout OutputChannel, flushingAt threshold: Int) {
        var from = 0, next = 0
        for mark in marks {
            bytes.withUnsafeBytes { out.writer.writeRaw(UnsafeRawBufferPointer(rebasing: $0[from..<mark.offset])) }
            from = mark.offset
            HeldOutput.write(&records, next..<mark.end, textSync: mark.textSync, to: &out.writer)
            next = mark.end
            if out.pendingBytes >= threshold { out.flush() }
        }
        bytes.withUnsafeBytes { out.writer.writeRaw(UnsafeRawBufferPointer(rebasing: $0[from...])) }
    }

    /// Each record is moved out of its slot to be written and moved back: read in place
    /// it would be copied, and the copy destroyed apart from the original (as in
    /// `Daemon.drain`).
    private static func write(_ records: inout [EventRecord], _ range: Range<Int>, textSync: TextSync, to w: inout JSONWriter) {
        records.withUnsafeMutableBufferPointer { records in
            for i in range {
                let slot = records.baseAddress! + i
                let record = slot.move()
                EventEncoder.write(record, textSync: textSync, to: &w)
                slot.initialize(to: consume record)
                w.writeRaw("\n")
            }
        }
    }
}
