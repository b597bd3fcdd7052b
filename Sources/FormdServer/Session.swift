import FormdCore
import FormdJSON
import FormdProtocol

/// Sees every change a command makes before any output that reveals it can be written:
/// the hook `--state` journals through. Called on the session's thread only.
public protocol CommandObserver: AnyObject, Sendable {
    /// A command on `form` succeeded and emitted `events` (a command that emits nothing
    /// changed nothing); `engine` is the state after it. Called before the command's
    /// events and response are written to the output buffer.
    func commandChanged(form: String, events: [EventRecord], engine: FormEngine)
    /// The output buffer is about to be written: make everything seen so far as durable as
    /// configured. False when that failed; the server then stops without writing it.
    func commit(engine: FormEngine) -> Bool
}

/// One client's conversation with the engine: turns input lines into output lines.
///
/// No I/O here: `handleLine` appends whole `\n`-terminated messages to a writer, so the
/// same session serves stdio, tests and the fuzzer. Events a request causes are written
/// before its response.
public struct Session: Sendable {
    public private(set) var engine: FormEngine
    public let limits: SessionLimits
    /// The 1-based number of the last line handled, counting empty ones.
    public private(set) var lineNumber = 0
    /// Set once `shutdown` has been answered; the caller stops reading.
    public private(set) var isShutDown = false
    /// How this client counts positions and what `textChanged` carries (`initialize`).
    public private(set) var positionEncoding = PositionEncoding.character
    public private(set) var textSync = TextSync.full
    /// Reused for every command, so the hot path allocates no event list or response.
    private var events: [EventRecord] = []
    private var response = JSONWriter(reservingCapacity: 256)
    /// Told of every state change before its response is written (`--state`).
    public var observer: (any CommandObserver)? = nil

    public init(engine: FormEngine = FormEngine(), limits: SessionLimits = SessionLimits()) {
        self.engine = engine
        self.limits = limits
    }

    /// Handles one input line (without its `\n`; a trailing `\r` is dropped).
    public mutating func handleLine(_ line: UnsafeRawBufferPointer, into w: inout JSONWriter) {
        lineNumber += 1
        var bytes = line
        if let last = bytes.last, last == UInt8(ascii: "\r") { bytes = UnsafeRawBufferPointer(rebasing: bytes.dropLast()) }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        if bytes.count > limits.maxLineBytes {
            refuseLongLine(prefix: UnsafeRawBufferPointer(rebasing: bytes.prefix(Session.idPrefixBytes)), into: &w)
            return
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maxDepth: limits.maxDepth)
        } catch {
            // A limit answers the request it refused when its id can be read; a line that
            // is not JSON has no id (JSON-RPC: null).
            var id = RequestID.null
            if case .depthExceeded = error.kind { id = LeadingID.scan(bytes) ?? .null }
            writeLine(&w) { MessageWriter.writeError(id: id, Session.protocolError(for: error), to: &$0) }
            return
        }
        guard case .array(let batch) = value else {
            response.bytes.removeAll(keepingCapacity: true)
            if handle(Envelope(value), events: &w) {
                w.writeRaw(response.bytes)
                w.writeRaw("\n")
            }
            return
        }
        if batch.isEmpty {
            writeLine(&w) { MessageWriter.writeError(id: .null, ProtocolError(.invalidRequest, "an empty batch is not a request"), to: &$0) }
            return
        }
        // Responses gather in `response`, comma-separated, while events go out at once.
        response.bytes.removeAll(keepingCapacity: true)
        var answered = 0
        for item in batch {
            let mark = response.bytes.count
            if answered > 0 { response.writeRaw(",") }
            if handle(Envelope(item), events: &w) {
                answered += 1
            } else {
                response.bytes.removeSubrange(mark...)
            }
        }
        if answered == 0 { return }
        w.writeRaw("[")
        w.writeRaw(response.bytes)
        w.writeRaw("]\n")
    }

    /// How much of an over-long line is searched for the request's `id`.
    public static let idPrefixBytes = 512

    /// The answer for a line longer than `maxLineBytes`; the reader has already dropped it
    /// but for `prefix`, its start. The answer carries the request's `id` when the prefix
    /// shows it (`LeadingID`), else null.
    public mutating func refuseLongLine(prefix: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0), into w: inout JSONWriter) {
        let error = ProtocolError(.limitExceeded, "limit maxLineBytes exceeded: line \(lineNumber) is longer than \(limits.maxLineBytes) bytes (raise it with --max-line-bytes)")
        let id = LeadingID.scan(prefix) ?? .null
        writeLine(&w) { MessageWriter.writeError(id: id, error, to: &$0) }
    }

    /// Counts a line that was dropped before it could be handled (too long), so later
    /// line numbers stay right.
    public mutating func skipLine() { lineNumber += 1 }

    /// Carries out one request: events go straight to `w`; the response (if the request
    /// has an id) is appended to `response`, so a batch can gather responses into one
    /// array. Returns whether a response was written.
    private mutating func handle(_ envelope: Envelope, events w: inout JSONWriter) -> Bool {
        let answer: Answer
        do {
            answer = try perform(envelope.call.get(), events: &w)
        } catch {
            guard let id = envelope.id else {
                writeLine(&w) { MessageWriter.writeErrorNotification(error, line: lineNumber, method: envelope.method, to: &$0) }
                return false
            }
            MessageWriter.writeError(id: id, error, to: &response)
            return true
        }
        guard let id = envelope.id else { return false }
        MessageWriter.openResponse(id: id, to: &response)
        switch answer {
        case .initialize(let encoding, let sync):
            ServerInfo.writeInitializeResult(positionEncoding: encoding, textSync: sync, to: &response)
        case .empty:
            response.writeRaw("{}")
        case .command(let result):
            ResultEncoder.write(result, to: &response)
        }
        response.writeRaw("}")
        return true
    }

    /// What a call answers, before it is encoded.
    private enum Answer {
        case initialize(PositionEncoding, TextSync)
        case empty
        case command(CommandResult)
    }

    /// Runs a call and writes its events.
    private mutating func perform(_ call: Call, events w: inout JSONWriter) throws(ProtocolError) -> Answer {
        switch call {
        case .initialize(_, let encoding, let sync):
            if let encoding { positionEncoding = encoding }
            if let sync { textSync = sync }
            return .initialize(positionEncoding, textSync)
        case .shutdown:
            isShutDown = true
            return .empty
        case .form(let name, let command):
            let result: CommandResult
            do {
                result = try engine.perform(command, on: name, encoding: positionEncoding, events: &events)
            } catch {
                throw ProtocolError(error)
            }
            if !events.isEmpty { observer?.commandChanged(form: name, events: events, engine: engine) }
            for i in events.indices {
                EventEncoder.write(events[i], textSync: textSync, to: &w)
                w.writeRaw("\n")
            }
            events.removeAll(keepingCapacity: true)
            return .command(result)
        }
    }

    private func writeLine(_ w: inout JSONWriter, _ body: (inout JSONWriter) -> Void) {
        body(&w)
        w.writeRaw("\n")
    }

    static func protocolError(for error: JSONParseError) -> ProtocolError {
        if case .depthExceeded(let limit) = error.kind {
            return ProtocolError(.limitExceeded, "limit maxDepth exceeded: JSON nests deeper than \(limit) levels (raise it with --max-depth)")
        }
        return ProtocolError(.parseError, "parse error: \(error.message)")
    }
}
