import FormdCore
import FormdJSON
import FormdProtocol

/// Where the events of a client's own commands go, after the observer and the other
/// clients have seen them: written at once (`ImmediateEvents`), or, in a stdio burst,
/// held as records for the burst's second thread to encode (`HeldEvents`).
public protocol EventSink {
    /// The list a command's events are appended to, after any the sink still holds.
    var records: [EventRecord] { get set }
    /// The command just carried out on form `name` for `client` emitted `records[start...]`;
    /// its response (if any) will follow in `w`. The client is only read: `inout` passes it
    /// where it lies, where a borrowed argument is a copy of the whole state.
    mutating func emitted(from start: Int, form name: String, for client: inout ClientState, to w: inout JSONWriter)
    /// Takes the response to a request not in a batch, to write it later at the end of `w`
    /// as it is now; false when it is to be written at once.
    mutating func respond(id: RequestID, _ result: CommandResult, framing: Framing, at w: inout JSONWriter) -> Bool
}

extension EventSink {
    /// Responses are written at once.
    @inline(__always)
    public mutating func respond(id: RequestID, _ result: CommandResult, framing: Framing, at w: inout JSONWriter) -> Bool { false }
}

/// Writes each command's events into the output at once, before its response.
public struct ImmediateEvents: EventSink, Sendable {
    /// Reused for every command, so the hot path allocates no event list.
    public var records: [EventRecord] = []

    public init() {}

    @inline(__always)
    public mutating func emitted(from start: Int, form name: String, for client: inout ClientState, to w: inout JSONWriter) {
        ClientEvents.drain(&records, for: client, to: &w)
    }
}
