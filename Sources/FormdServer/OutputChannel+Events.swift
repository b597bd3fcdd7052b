import FormdCore
import FormdJSON
import FormdProtocol

extension OutputChannel {
    /// Appends one event as a message in `framing`. A large one (`PiecewiseEvent.isLarge`:
    /// a `submitted` event, a whole form's state) is streamed instead: written a piece at a
    /// time, the output flushed whenever `threshold` bytes wait, so it is never held whole.
    /// `seqs`: the digits of the last `seq` written (`EventEncoder.write(seqs:)`).
    @inline(__always)
    mutating func writeEvent(_ record: EventRecord, textSync: TextSync, framing: Framing, seqs: inout DecimalCounter, flushingAt threshold: Int) {
        if PiecewiseEvent.isLarge(record) {
            stream(PiecewiseEvent(record), framing: framing, flushingAt: threshold)
            return
        }
        let newline = framing == .ndjson
        let start = writer.count
        EventEncoder.write(record, textSync: textSync, newline: newline, seqs: &seqs, to: &writer)
        if !newline { writer.endMessage(from: start, framing) }
    }

    /// Writes `event` a piece at a time, flushing whenever `threshold` bytes wait; once the
    /// output is closed the rest is not worth encoding. `Content-Length` needs the size
    /// first: the event is counted then (nothing kept).
    @inline(never)
    private mutating func stream(_ event: consuming PiecewiseEvent, framing: Framing, flushingAt threshold: Int) {
        if framing == .contentLength { writer.writeContentLengthHeader(bodyBytes: event.count()) }
        while event.writeNext(to: &writer, atLeast: threshold) {
            if pendingBytes >= threshold { flush() }
            if isClosed { return }
        }
        if framing == .ndjson { writer.writeRaw("\n") }
    }
}

extension JSONWriter {
    /// The header of a `Content-Length` message whose body, `bodyBytes` long, is written
    /// after it (a body streamed, not inserted after: `endMessage`).
    mutating func writeContentLengthHeader(bodyBytes: Int) {
        writeRaw("Content-Length: ")
        writeInt(bodyBytes)
        writeRaw("\r\n\r\n")
    }
}

extension Framing {
    /// The bytes framing adds to a message whose body is `bodyBytes` long: its newline, or
    /// its header.
    func overhead(bodyBytes: Int) -> Int {
        switch self {
        case .ndjson: 1
        case .contentLength: "Content-Length: \(bodyBytes)\r\n\r\n".utf8.count
        }
    }
}
