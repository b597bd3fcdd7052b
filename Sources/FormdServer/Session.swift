import FormdCore
import FormdJSON
import FormdProtocol

/// One client's conversation with the engine over stdio: the daemon's engine and a single
/// client's state. Turns input lines into output messages.
///
/// No I/O here: `handleLine` appends whole messages to a writer, so the same session
/// serves stdio, tests and the fuzzer. Events a request causes are written before its
/// response. `--listen` serves many clients from one `Daemon` instead, each with its own
/// `ClientState`; the line handling is the same code.
public struct Session: Sendable {
    public private(set) var daemon: Daemon
    public internal(set) var client = ClientState()

    public init(engine: FormEngine = FormEngine(), limits: SessionLimits = SessionLimits()) {
        daemon = Daemon(engine: engine, limits: limits)
    }

    public var engine: FormEngine { daemon.engine }
    public var limits: SessionLimits { daemon.limits }
    /// The 1-based number of the last line handled, counting empty ones.
    public var lineNumber: Int { client.lineNumber }
    /// Set once `shutdown` has been answered; the caller stops reading.
    public var isShutDown: Bool { client.isShutDown }
    /// How the client's messages are delimited; the stdio server sets it once the first
    /// bytes chose it.
    public var framing: Framing {
        get { client.framing }
        set { client.framing = newValue }
    }
    /// Why the input's header block could not be read, once it could not (`ClientState`).
    public var unreadableHeader: String? { client.unreadableHeader }
    /// How this client counts positions and what `textChanged` carries (`initialize`).
    public var positionEncoding: PositionEncoding { client.positionEncoding }
    public var textSync: TextSync { client.textSync }
    /// Told of every state change before its response is written (`--state`).
    public var observer: (any CommandObserver)? {
        get { daemon.observer }
        set { daemon.observer = newValue }
    }

    /// Handles one input line (without its `\n`; a trailing `\r` is dropped).
    public mutating func handleLine(_ line: UnsafeRawBufferPointer, into w: inout JSONWriter) {
        handle(DecodedLine(line, limits: limits), into: &w)
    }

    /// Handles one line already decoded (`DecodedLine`, under this session's limits).
    public mutating func handle(_ line: consuming DecodedLine, into w: inout JSONWriter) {
        var peers = NoPeers()
        daemon.handle(consume line, client: &client, into: &w, peers: &peers)
    }

    /// `Daemon.prefetchSlot` and `prefetchField`: hints for a line handled soon (mutating
    /// only to reach the engine in place).
    @inline(__always)
    mutating func prefetchSlot(for line: UnsafePointer<DecodedLine>) -> LookupHint? { daemon.prefetchSlot(for: line) }

    @inline(__always)
    mutating func prefetchField(_ hint: LookupHint) { daemon.prefetchField(hint) }

    /// `handle`, the events of commands held in `held` for the burst's second thread, and
    /// the line given back spent (`Daemon.handle(spent:)`).
    mutating func handle(spent line: consuming DecodedLine, into w: inout JSONWriter, holding held: inout HeldEvents) -> DecodedLine {
        var peers = NoPeers()
        return daemon.handle(spent: line, client: &client, into: &w, peers: &peers, events: &held)
    }
}
