import FormdJSON
import FormdProtocol

extension JSONWriter {
    /// Ends the message written since `start` as `framing` delimits it: a newline after it,
    /// or its `Content-Length` header before it.
    @inline(__always)
    mutating func endMessage(from start: Int, _ framing: Framing) {
        if framing == .ndjson {
            // Through a cursor: an append of a literal is a call and a copy, for one byte.
            write(upTo: 1) { $0.raw("\n") }
        } else {
            ContentLengthHeader.insert(before: start, in: &self)
        }
    }
}
