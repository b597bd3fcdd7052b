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
            if let response = handle(Envelope(value), into: &w) { writeLine(&w) { $0.writeRaw(response) } }
            return
        }
        if batch.isEmpty {
            writeLine(&w) { MessageWriter.writeError(id: .null, ProtocolError(.invalidRequest, "an empty batch is not a request"), to: &$0) }
            return
        }
        let responses = batch.compactMap { handle(Envelope($0), into: &w) }
        if responses.isEmpty { return }
        writeLine(&w) { w in
            w.writeRaw("[")
            for (i, r) in responses.enumerated() {
                if i > 0 { w.writeRaw(",") }
                w.writeRaw(r)
            }
            w.writeRaw("]")
        }
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
    /// has an id) is returned, so a batch can gather responses into one array.
    private mutating func handle(_ envelope: Envelope, into w: inout JSONWriter) -> [UInt8]? {
        var response = JSONWriter(reservingCapacity: 64)
        switch envelope.call {
        case .failure(let error):
            guard let id = envelope.id else {
                writeLine(&w) { MessageWriter.writeErrorNotification(error, line: lineNumber, method: envelope.method, to: &$0) }
                return nil
            }
            MessageWriter.writeError(id: id, error, to: &response)
        case .success(let call):
            do {
                let write = try perform(call, events: &w)
                guard let id = envelope.id else { return nil }
                MessageWriter.openResponse(id: id, to: &response)
                write(&response)
                response.writeRaw("}")
            } catch {
                guard let id = envelope.id else {
                    writeLine(&w) { MessageWriter.writeErrorNotification(error, line: lineNumber, method: envelope.method, to: &$0) }
                    return nil
                }
                MessageWriter.writeError(id: id, error, to: &response)
            }
        }
        return response.bytes
    }

    /// Runs a call, writes its events, and returns how to write its result.
    private mutating func perform(_ call: Call, events w: inout JSONWriter) throws(ProtocolError) -> (inout JSONWriter) -> Void {
        switch call {
        case .initialize(_, let encoding, let sync):
            if let encoding { positionEncoding = encoding }
            if let sync { textSync = sync }
            let (e, t) = (positionEncoding, textSync)
            return { ServerInfo.writeInitializeResult(positionEncoding: e, textSync: t, to: &$0) }
        case .shutdown:
            isShutDown = true
            return { $0.writeRaw("{}") }
        case .form(let name, let command):
            let outcome: CommandOutcome
            do {
                outcome = try engine.perform(command, on: name, encoding: positionEncoding)
            } catch {
                throw ProtocolError(error)
            }
            if !outcome.events.isEmpty { observer?.commandChanged(form: name, events: outcome.events, engine: engine) }
            for record in outcome.events {
                writeLine(&w) { EventEncoder.write(record, textSync: textSync, to: &$0) }
            }
            return { ResultEncoder.write(outcome.result, to: &$0) }
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
