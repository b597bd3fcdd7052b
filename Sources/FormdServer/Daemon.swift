import FormdCore
import FormdJSON
import FormdProtocol

/// The daemon's shared part and its one job, handling a client's messages: the engine
/// every client works on and the `--state` observer. Per-client state comes in as a
/// `ClientState`; the events of a command go to the observer, to the other clients
/// (`EventPeers`) and to the client that sent it (an `EventSink`), before its response.
public struct Daemon: Sendable {
    public private(set) var engine: FormEngine
    public let limits: SessionLimits
    /// Told of every state change before its response is written (`--state`).
    public var observer: (any CommandObserver)? = nil
    /// The sink of `handle(_:client:into:peers:)`, reused so the hot path allocates no
    /// event list.
    private var immediate = ImmediateEvents()
    private var recount = EncodingRecount()
    /// A batch's responses, moved out of the output to become its array; reused.
    private var response = JSONWriter(reservingCapacity: 256)

    public init(engine: FormEngine = FormEngine(), limits: SessionLimits = SessionLimits(),
                observer: (any CommandObserver)? = nil) {
        self.engine = engine
        self.limits = limits
        self.observer = observer
    }

    /// Handles one input line from `client` (without its `\n`; a trailing `\r` is
    /// dropped). Output for `client` goes to `w`, events first; events also go to `peers`.
    public mutating func handleLine<Peers: EventPeers>(_ line: UnsafeRawBufferPointer, client: inout ClientState,
                                                        into w: inout JSONWriter, peers: inout Peers) {
        handle(DecodedLine(line, limits: limits), client: &client, into: &w, peers: &peers)
    }

    /// Handles one line already decoded (`DecodedLine`, under this daemon's limits), as
    /// `handleLine` would the line itself, the client's events written at once.
    public mutating func handle<Peers: EventPeers>(_ line: consuming DecodedLine, client: inout ClientState,
                                                    into w: inout JSONWriter, peers: inout Peers) {
        var sink = ImmediateEvents()
        swap(&sink, &immediate)
        handle(consume line, client: &client, into: &w, peers: &peers, events: &sink)
        swap(&sink, &immediate)
    }

    /// The two stages of a lookup prepared ahead for a line handled soon
    /// (`FormEngine.prefetchSlot`, `prefetchField`): hints only. Mutating only so that the
    /// engine is reached in place.
    @inline(__always)
    public mutating func prefetchSlot(for line: UnsafePointer<DecodedLine>) -> LookupHint? {
        guard let (form, field) = Self.namedField(of: line) else { return nil }
        return engine.prefetchSlot(field: field, on: form)
    }

    @inline(__always)
    public mutating func prefetchField(_ hint: LookupHint) { engine.prefetchField(hint) }

    /// The form and field that the command of `line` names by id, read in place; nil for
    /// any other line. Matched in one pattern, so only the two ids are copied.
    public static func namedField(of line: UnsafePointer<DecodedLine>) -> (form: String, field: String)? {
        guard case .request(let envelope) = line.pointee else { return nil }
        switch envelope.call {
        case .success(.form(let form, .insertText(let field?, _))), .success(.form(let form, .delete(let field?, _, _))),
             .success(.form(let form, .select(let field?, _, _))), .success(.form(let form, .moveCaret(let field?, _, _))),
             .success(.form(let form, .editAction(let field?, _, _))), .success(.form(let form, .undo(let field?))),
             .success(.form(let form, .redo(let field?))), .success(.form(let form, .pressReturn(let field?))),
             .success(.form(let form, .setText(let field, _))), .success(.form(let form, .demandFocus(let field, _))):
            return (form, field)
        default:
            return nil
        }
    }

    /// `handle`, the line given back once handled (spent), for its owner to free: the stdio
    /// server puts a burst's lines back in their block, which its burst thread frees as it
    /// reuses the list, so the serving thread does not destroy them.
    public mutating func handle<Peers: EventPeers, Sink: EventSink>(spent line: consuming DecodedLine, client: inout ClientState,
                                                                    into w: inout JSONWriter, peers: inout Peers,
                                                                    events sink: inout Sink) -> DecodedLine {
        guard case .request = line else {
            handle(consume line, client: &client, into: &w, peers: &peers, events: &sink)
            return .blank
        }
        // Bound by `guard case` from the consumed line, the request is moved back whole
        // afterwards; bound in a `switch`, it would be copied.
        guard case .request(let envelope) = consume line else { preconditionFailure("a request, as just seen") }
        client.lineNumber += 1
        if let start = handle(envelope, client: &client, into: &w, peers: &peers, events: &sink) { w.endMessage(from: start, client.framing) }
        return .request(consume envelope)
    }

    /// `handle`, the client's own events given to `sink`. The line is consumed: its
    /// request is handled where it lies, where binding it from a borrowed line could copy
    /// it whole first.
    public mutating func handle<Peers: EventPeers, Sink: EventSink>(_ line: consuming DecodedLine, client: inout ClientState,
                                                                    into w: inout JSONWriter, peers: inout Peers,
                                                                    events sink: inout Sink) {
        client.lineNumber += 1
        switch consume line {
        case .blank:
            return
        case .tooLong(let id):
            refuseLongLine(id: id, client: client, into: &w)
        case .unreadable(let id, let error):
            writeMessage(&w, client.framing) { MessageWriter.writeError(id: id, error, to: &$0) }
        case .unreadableHeader(let reason):
            client.unreadableHeader = reason
            let error = ProtocolError(.parseError, "unreadable header: \(reason); a Content-Length stream cannot be resynchronised, so the connection is closed")
            writeMessage(&w, client.framing) { MessageWriter.writeErrorNotification(error, line: client.lineNumber, method: nil, to: &$0) }
        case .request(let envelope):
            if let start = handle(envelope, client: &client, into: &w, peers: &peers, events: &sink) { w.endMessage(from: start, client.framing) }
        case .batch(let batch):
            // Events go out at once; each response is moved from the end of the output into
            // `response`, which becomes the batch's array.
            response.removeAll()
            let lineStart = w.count
            client.batchCut = false
            for item in batch {
                // Past `maxLineOutput` (or once an answer counted first would pass it), the
                // rest of the batch is refused, not carried out.
                let over = client.batchCut || w.count - lineStart + response.count > limits.maxLineOutput
                guard let start = over ? refuse(item, ProtocolError(.limitExceeded, "limit maxLineOutput exceeded: this batch's answers passed \(limits.maxLineOutput) bytes, so its remaining requests were not carried out; send them in smaller batches (raise it with --max-line-output)"), client: client, into: &w)
                                       : handle(item, client: &client, into: &w, peers: &peers, events: &sink,
                                                batchUsed: w.count - lineStart + response.count) else { continue }
                if !response.isEmpty { response.writeRaw(",") }
                w.withUnsafeBytes { response.writeRaw(UnsafeRawBufferPointer(rebasing: $0[start...])) }
                w.truncate(to: start)
            }
            if response.isEmpty { return }
            let start = w.count
            w.writeRaw("[")
            w.writeRaw(response)
            w.writeRaw("]")
            w.endMessage(from: start, client.framing)
        }
    }

    /// The answer for a line longer than `maxLineBytes`, with the `id` its start showed.
    private func refuseLongLine(id: RequestID, client: ClientState, into w: inout JSONWriter) {
        let error = ProtocolError(.limitExceeded, "limit maxLineBytes exceeded: line \(client.lineNumber) is longer than \(limits.maxLineBytes) bytes (raise it with --max-line-bytes)")
        writeMessage(&w, client.framing) { MessageWriter.writeError(id: id, error, to: &$0) }
    }

    /// Carries out one request: its events, then its response if it has an id, are appended
    /// to `w` (the events also go to the peers), unless the sink holds the response
    /// (`EventSink.respond`). Returns where the response starts in `w`, or nil when there is
    /// none there, so a batch can move responses into one array. A large
    /// `getState` or `submit` answer may be streamed (nil) or refused instead
    /// (`ClientState.place`; a `submit`'s before it is carried out).
    @inline(__always)
    private mutating func handle<Peers: EventPeers, Sink: EventSink>(_ envelope: Envelope, client: inout ClientState,
                                                                     into w: inout JSONWriter, peers: inout Peers,
                                                                     events sink: inout Sink, batchUsed: Int? = nil) -> Int? {
        let answer = self.answer(envelope.call, id: envelope.id, batchUsed: batchUsed, client: &client, into: &w, peers: &peers, events: &sink)
        if case .refused(let error) = answer { return refuse(envelope, error, client: client, into: &w) }
        guard let id = envelope.id else { return nil }
        let start = w.count
        // Consumed: its result is moved out, not copied out and destroyed with it.
        switch consume answer {
        case .initialize(let encoding, let sync):
            MessageWriter.openResponse(id: id, to: &w)
            ServerInfo.writeInitializeResult(positionEncoding: encoding, textSync: sync, framing: client.framing, to: &w)
            w.writeRaw("}")
        case .empty:
            MessageWriter.writeResponse(id: id, .done, to: &w)
        case .held:
            return nil
        case .command(let result):
            if case .state(let state) = result, PiecewiseAnswer.isLarge(state) {
                switch client.place(PiecewiseAnswer(id: id, result: .state(state)), batchUsed: batchUsed, limits: limits) {
                case .write: break
                case .streamed: return nil
                case .refused(let error): return refuse(envelope, error, client: client, into: &w)
                }
            }
            MessageWriter.writeResponse(id: id, result, to: &w)
        case .streamed:
            return nil
        case .refused:
            preconditionFailure("a refused call is answered with its error above")
        }
        return start
    }

    /// Answers `envelope` with `error`: a response when it has an id (where it starts in
    /// `w` is returned, as `handle` does), else an `error` notification if the client
    /// takes them.
    private func refuse(_ envelope: Envelope, _ error: ProtocolError, client: ClientState, into w: inout JSONWriter) -> Int? {
        guard let id = envelope.id else {
            if client.errorNotifications {
                writeMessage(&w, client.framing) { MessageWriter.writeErrorNotification(error, line: client.lineNumber, method: envelope.method, to: &$0) }
            }
            return nil
        }
        let start = w.count
        MessageWriter.writeError(id: id, error, to: &w)
        return start
    }

    /// What a call answers, before it is encoded.
    private enum Answer {
        case initialize(PositionEncoding, TextSync)
        case empty
        case command(CommandResult)
        /// Carried out; its answer is left for the server to stream (`ClientState.streamedAnswer`).
        case streamed
        /// Carried out; its response is held by the event sink (`EventSink.respond`).
        case held
        case refused(ProtocolError)
    }

    /// `perform` on the call as decoded, its error returned as the answer. Switched on
    /// here, in a function that returns its error, the call is read in place, not copied
    /// (PERFORMANCE.md, "The stdio path").
    @inline(__always)
    private mutating func answer<Peers: EventPeers, Sink: EventSink>(_ call: Result<Call, ProtocolError>, id: RequestID?, batchUsed: Int?,
                                                                     client: inout ClientState,
                                                                     into w: inout JSONWriter, peers: inout Peers,
                                                                     events sink: inout Sink) -> Answer {
        do throws(ProtocolError) {
            switch call {
            case .success(let call): return try perform(call, id: id, batchUsed: batchUsed, client: &client, into: &w, peers: &peers, events: &sink)
            case .failure(let error): return .refused(error)
            }
        } catch {
            return .refused(error)
        }
    }

    /// Runs a call; its events go to the observer, the peers and the sink. A `submit`'s or
    /// `reset`'s large output is placed (`placeLargeOutput`) before it is carried out.
    @inline(__always)
    private mutating func perform<Peers: EventPeers, Sink: EventSink>(_ call: Call, id: RequestID?, batchUsed: Int?,
                                                                      client: inout ClientState,
                                                                      into w: inout JSONWriter, peers: inout Peers,
                                                                      events sink: inout Sink) throws(ProtocolError) -> Answer {
        switch call {
        case .initialize(_, let encoding, let sync, let errorNotifications):
            if let encoding { client.positionEncoding = encoding }
            if let errorNotifications { client.errorNotifications = errorNotifications }
            if let sync { client.textSync = sync }
            return .initialize(client.positionEncoding, client.textSync)
        case .shutdown:
            client.isShutDown = true
            return .empty
        case .subscribe(let rule):
            try client.subscription.subscribe(rule)
            return .empty
        case .unsubscribe(let rule):
            try client.subscription.unsubscribe(rule)
            return .empty
        case .refused(let name, let fields, let error):
            client.subscription.attach(name)
            guard let form = engine.form(name) else { throw ProtocolError(FormError.unknownForm(name)) }
            for id in fields {
                do { _ = try form.index(of: id) } catch { throw ProtocolError(error) }
            }
            throw error
        case .form(let name, let command):
            client.subscription.attach(name)
            let encoding = client.positionEncoding
            // Peers counting positions differently get the events recounted; what that
            // needs from before the command costs one field (never a copy of the engine).
            let otherEncodings = peers.encodings(receiving: name).subtracting(EncodingSet(encoding))
            let basis = otherEncodings.isEmpty ? nil : engine.recountBasis(for: command, on: name)
            engine.setEventTexts(peers.textsRead(sender: client, on: name, recounting: otherEncodings, observer: observer))
            let start = sink.records.count
            // Only a submit or a reset has large output to place: asked for every command,
            // the call alone (the command copied into it) costs about 60 instructions.
            let streamed: Bool
            switch command {
            case .submit, .reset: streamed = try placeLargeOutput(command, on: name, id: id, batchUsed: batchUsed, client: &client)
            default: streamed = false
            }
            let result: CommandResult
            do {
                result = try engine.perform(command, on: name, encoding: encoding, events: &sink.records)
            } catch {
                client.streamedAnswer = nil
                throw ProtocolError(error)
            }
            if sink.records.count > start {
                observer?.commandChanged(form: name, events: start == 0 ? sink.records : Array(sink.records[start...]), engine: engine)
                peers.deliver(sink.records[start...], encoding: encoding)
                if let basis {
                    recount.deliver(sink.records[start...], on: name, from: encoding, to: otherEncodings,
                                    basis: basis, engine: engine, peers: &peers)
                }
                sink.emitted(from: start, form: name, for: &client, to: &w)
            }
            if streamed { return .streamed }
            // The response of a single request (a batch's go into its array) may be held.
            if let id, batchUsed == nil, sink.respond(id: id, result, framing: client.framing, at: &w) { return .held }
            return .command(result)
        }
    }

    private func writeMessage(_ w: inout JSONWriter, _ framing: Framing, _ body: (inout JSONWriter) -> Void) {
        let start = w.count
        body(&w)
        w.endMessage(from: start, framing)
    }
}
