import FormdJSON

/// The JSON-RPC envelopes formd writes. Every message carries `"jsonrpc":"2.0"`.
public enum MessageWriter {
    /// `{"jsonrpc":"2.0","id":…,"result":` — the caller writes the result and `}`.
    public static func openResponse(id: RequestID, to w: inout JSONWriter) {
        w.writeRaw("{\"jsonrpc\":\"2.0\",\"id\":")
        id.write(to: &w)
        w.writeRaw(",\"result\":")
    }

    public static func writeError(id: RequestID, _ error: ProtocolError, to w: inout JSONWriter) {
        w.writeRaw("{\"jsonrpc\":\"2.0\",\"id\":")
        id.write(to: &w)
        w.writeRaw(",\"error\":{\"code\":")
        w.writeInt(error.code.rawValue)
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
}
