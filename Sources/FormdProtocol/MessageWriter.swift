import FormdCore
import FormdJSON

/// The JSON-RPC envelopes formd writes. Every message carries `"jsonrpc":"2.0"`.
public enum MessageWriter {
    /// `{"jsonrpc":"2.0","id":…,"result":` — the caller writes the result and `}`.
    public static func openResponse(id: RequestID, to w: inout JSONWriter) {
        id.write(after: "{\"jsonrpc\":\"2.0\",\"id\":", to: &w)
        w.writeRaw(",\"result\":")
    }

    /// A command's whole response; one with a compact result in one reservation. `newline`
    /// ends it as NDJSON frames a message.
    public static func writeResponse(id: RequestID, _ result: CommandResult, to w: inout JSONWriter, newline: Bool = false) {
        guard let bound = ResultEncoder.compactBound(result) else {
            openResponse(id: id, to: &w)
            ResultEncoder.write(result, to: &w)
            if newline { w.writeRaw("}\n") } else { w.writeRaw("}") }
            return
        }
        writeCompact(result, bound: bound, idBound: id.bound, to: &w, newline: newline) { id.write(&$0) }
    }

    /// `writeResponse` of a compact result (`ResultEncoder.compactBound`) and an id whose
    /// text a string holds inline, given as that string's two words
    /// (`ShortUTF8.inlineWords`): a number's literal, or a string to quote.
    public static func writeResponse(inlineID words: (UInt64, UInt64), quoted: Bool, compact result: CommandResult,
                                     to w: inout JSONWriter, newline: Bool) {
        // The words are an inline string's whole value: it holds no reference.
        let text = unsafeBitCast(words, to: String.self)
        writeCompact(result, bound: ResultEncoder.compactBound(result)!, idBound: JSONCursor.bound(utf8Count: 15),
                     to: &w, newline: newline) { c in
            if quoted { c.string(text) } else { c.number(text) }
        }
    }

    /// A response of a compact result, in one reservation; `id` writes the id (at most
    /// `idBound` bytes).
    @inline(__always)
    private static func writeCompact(_ result: CommandResult, bound: Int, idBound: Int, to w: inout JSONWriter, newline: Bool,
                                     id: (inout JSONCursor) -> Void) {
        let opening: StaticString = "{\"jsonrpc\":\"2.0\",\"id\":", middle: StaticString = ",\"result\":"
        let reserved = opening.utf8CodeUnitCount + idBound + middle.utf8CodeUnitCount + bound + 2
        var c = w.reserve(reserved)
        c.raw(opening)
        id(&c)
        c.raw(middle)
        ResultEncoder.writeCompact(result, &c)
        if newline { c.raw("}\n") } else { c.raw("}") }
        w.commit(c, reserved: reserved)
    }

    public static func writeError(id: RequestID, _ error: ProtocolError, to w: inout JSONWriter) {
        id.write(after: "{\"jsonrpc\":\"2.0\",\"id\":", to: &w)
        w.writeInt(error.code.rawValue, after: ",\"error\":{\"code\":")
        w.writeRaw(",\"message\":")
        w.writeString(error.message)
        w.writeRaw("}}")
    }

    /// The `error` notification for a failed notification: a shell pipe never fails
    /// silently. `line` is the 1-based input line the notification came on.
    public static func writeErrorNotification(_ error: ProtocolError, line: Int, method: String?, to w: inout JSONWriter) {
        w.writeRaw("{\"jsonrpc\":\"2.0\",\"method\":\"error\",\"params\":{\"code\":")
        w.writeInt(error.code.rawValue)
        w.key("message"); w.writeString(error.message)
        w.key("line"); w.writeInt(line)
        if let method { w.key("method"); w.writeString(method) }
        w.writeRaw("}}")
    }

    /// An `error` notification no input line caused (a connection's output buffer
    /// overflowed): no `line`, no `method`.
    public static func writeErrorNotification(_ error: ProtocolError, to w: inout JSONWriter) {
        w.writeRaw("{\"jsonrpc\":\"2.0\",\"method\":\"error\",\"params\":{\"code\":")
        w.writeInt(error.code.rawValue)
        w.key("message"); w.writeString(error.message)
        w.writeRaw("}}")
    }

    /// Why the daemon is shutting down, in its `shutdown` notification.
    public enum ShutdownReason: String, Sendable {
        /// A client sent `shutdown`.
        case request
        /// SIGTERM or SIGINT.
        case signal
    }

    /// The `shutdown` notification a `--listen` daemon sends each client before it closes
    /// the connection.
    public static func writeShutdownNotification(_ reason: ShutdownReason, to w: inout JSONWriter) {
        w.writeRaw("{\"jsonrpc\":\"2.0\",\"method\":\"shutdown\",\"params\":{\"reason\":")
        w.writeString(reason.rawValue)
        w.writeRaw("}}")
    }
}
