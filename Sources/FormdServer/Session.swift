import FormdCore
import FormdJSON
import FormdProtocol

/// Sees every change a command makes before any output that reveals it can be written:
/// the hook `--state` journals through. Called on the serving thread only.
public protocol CommandObserver: AnyObject, Sendable {
    /// A command on `form` succeeded and emitted `events` (a command that emits nothing
    /// changed nothing); `engine` is the state after it. Called before the command's
    /// events and response are written to any output buffer.
    func commandChanged(form: String, events: [EventRecord], engine: FormEngine)
    /// Output is about to be written: make everything seen so far as durable as
    /// configured. False when that failed; the server then stops without writing it.
    func commit(engine: FormEngine) -> Bool
}

/// One client's conversation with the engine over stdio: the daemon's engine and a single
/// client's state. Turns input lines into output lines.
///
/// No I/O here: `handleLine` appends whole `\n`-terminated messages to a writer, so the
/// same session serves stdio, tests and the fuzzer. Events a request causes are written
/// before its response. `--listen` serves many clients from one `Daemon` instead, each
/// with its own `ClientState`; the line handling is the same code.
public struct Session: Sendable {
    public private(set) var daemon: Daemon
    public private(set) var client = ClientState()

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
        daemon.handle(line, client: &client, into: &w, peers: &peers)
    }

    /// While on, the events of commands are held as records with a mark of where in the
    /// output they go, for `takeHeld`; off, they are written as they come.
    mutating func holdEvents(_ on: Bool) { daemon.holdEvents(on) }

    /// Events held so far.
    var heldCount: Int { daemon.heldCount }

    /// The output written to `w` and the events held since the last call, in order; `w`
    /// is left empty. `spare`, an emptied `HeldOutput`, lends its room to what is held next.
    mutating func takeHeld(_ w: inout JSONWriter, reusing spare: HeldOutput?) -> HeldOutput {
        daemon.takeHeld(&w, reusing: spare)
    }
}

/// What belongs to one client rather than to the daemon: its line count, its choices from
/// `initialize`, its subscription, and whether it asked for `shutdown`.
public struct ClientState: Sendable {
    /// The 1-based number of the last line handled, counting empty ones.
    public internal(set) var lineNumber = 0
    public internal(set) var positionEncoding = PositionEncoding.character
    public internal(set) var textSync = TextSync.full
    /// Whether a failed notification gets an `error` notification (`initialize` turns it off).
    public internal(set) var errorNotifications = true
    public internal(set) var subscription = Subscription()
    /// Set once this client's `shutdown` has been answered.
    public internal(set) var isShutDown = false
    /// How this client's messages are delimited (its first bytes chose it).
    public var framing = Framing.ndjson
    /// Why a `Content-Length` header block could not be read, once one could not: the
    /// stream cannot be resynchronised, so the connection ends after the `error` notification.
    public internal(set) var unreadableHeader: String? = nil

    public init() {}
}

/// The other clients of a daemon, as the line handler sees them: where the events of a
/// command sent by one client go besides that client. Stdio has none (`NoPeers`).
public protocol EventPeers {
    /// The position encodings of the other clients that may receive events of `form`.
    func encodings(receiving form: String) -> EncodingSet
    /// Hands a command's events, with positions counted in `encoding`, to every other
    /// client that counts in `encoding` and whose subscription admits them.
    mutating func deliver(_ events: [EventRecord], encoding: PositionEncoding)
}

/// No other clients: a stdio session.
public struct NoPeers: EventPeers {
    public init() {}
    @inline(__always) public func encodings(receiving form: String) -> EncodingSet { EncodingSet() }
    @inline(__always) public mutating func deliver(_ events: [EventRecord], encoding: PositionEncoding) {}
}

/// A set of position encodings.
public struct EncodingSet: OptionSet, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ encoding: PositionEncoding) {
        switch encoding {
        case .character: rawValue = 1
        case .utf8: rawValue = 2
        case .utf16: rawValue = 4
        case .utf32: rawValue = 8
        }
    }

    public var encodings: [PositionEncoding] { PositionEncoding.allCases.filter { contains(EncodingSet($0)) } }
}

/// The daemon's shared part: the engine every client works on, the `--state` observer,
/// and the line handler. Per-client state comes in as a `ClientState`; the events of a
/// command go to the client that sent it (before its response) and to its `peers`.
public struct Daemon: Sendable {
    public private(set) var engine: FormEngine
    public let limits: SessionLimits
    /// Told of every state change before its response is written (`--state`).
    public var observer: (any CommandObserver)? = nil
    /// Reused for every command, so the hot path allocates no event list or response.
    private var events: [EventRecord] = []
    /// The events of a command re-run for a peer that counts in another encoding.
    private var recounted: [EventRecord] = []
    private var response = JSONWriter(reservingCapacity: 256)
    /// While set, a command's events stay in `events`, marked in `marks` (`HeldOutput`).
    /// Only a stdio session holds them, so there are never peers to give them to then.
    private var holding = false
    private var marks: [HeldOutput.Mark] = []

    public init(engine: FormEngine = FormEngine(), limits: SessionLimits = SessionLimits(),
                observer: (any CommandObserver)? = nil) {
        self.engine = engine
        self.limits = limits
        self.observer = observer
    }

    /// Handles one input line from `client` (without its `\n`; a trailing `\r` is
    /// dropped). Output for `client` goes to `w`; events also go to `peers`.
    public mutating func handleLine<Peers: EventPeers>(_ line: UnsafeRawBufferPointer, client: inout ClientState,
                                                        into w: inout JSONWriter, peers: inout Peers) {
        handle(DecodedLine(line, limits: limits), client: &client, into: &w, peers: &peers)
    }

    /// Handles one line already decoded (`DecodedLine`, under this daemon's limits), as
    /// `handleLine` would the line itself. The line is consumed: its request is handled
    /// where it lies, where binding it from a borrowed line could copy it whole first.
    public mutating func handle<Peers: EventPeers>(_ line: consuming DecodedLine, client: inout ClientState,
                                                    into w: inout JSONWriter, peers: inout Peers) {
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
            if let start = handle(envelope, client: &client, into: &w, peers: &peers) { w.endMessage(from: start, client.framing) }
        case .batch(let batch):
            // Events go out at once; each response is moved from the end of the output into
            // `response`, which becomes the batch's array.
            response.removeAll()
            for item in batch {
                guard let start = handle(item, client: &client, into: &w, peers: &peers) else { continue }
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
    /// to `w` (the events also go to the peers). Returns where the response starts in `w`,
    /// or nil when there is none, so a batch can move responses into one array.
    private mutating func handle<Peers: EventPeers>(_ envelope: Envelope, client: inout ClientState,
                                                     into w: inout JSONWriter, peers: inout Peers) -> Int? {
        let answer = self.answer(envelope.call, client: &client, events: &w, peers: &peers)
        if case .refused(let error) = answer {
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
        guard let id = envelope.id else { return nil }
        let start = w.count
        switch answer {
        case .initialize(let encoding, let sync):
            MessageWriter.openResponse(id: id, to: &w)
            ServerInfo.writeInitializeResult(positionEncoding: encoding, textSync: sync, framing: client.framing, to: &w)
            w.writeRaw("}")
        case .empty:
            MessageWriter.writeResponse(id: id, .done, to: &w)
        case .command(let result):
            MessageWriter.writeResponse(id: id, result, to: &w)
        case .refused:
            preconditionFailure("a refused call is answered with its error above")
        }
        return start
    }

    /// What a call answers, before it is encoded.
    private enum Answer {
        case initialize(PositionEncoding, TextSync)
        case empty
        case command(CommandResult)
        case refused(ProtocolError)
    }

    /// `perform` on the call as decoded, its error returned as the answer. Shaped for
    /// Swift 6.3's optimizer: taking the call out of its `Result` where it is read from
    /// the envelope, or out into a constant before a throwing call, makes it copy the
    /// whole call and destroy the copy (about 350 instructions a request, callgrind);
    /// switched on here, in a function that returns its error, it is read in place.
    private mutating func answer<Peers: EventPeers>(_ call: Result<Call, ProtocolError>, client: inout ClientState,
                                                     events w: inout JSONWriter, peers: inout Peers) -> Answer {
        do throws(ProtocolError) {
            switch call {
            case .success(let call): return try perform(call, client: &client, events: &w, peers: &peers)
            case .failure(let error): return .refused(error)
            }
        } catch {
            return .refused(error)
        }
    }

    /// Runs a call and writes its events.
    private mutating func perform<Peers: EventPeers>(_ call: Call, client: inout ClientState,
                                                      events w: inout JSONWriter, peers: inout Peers) throws(ProtocolError) -> Answer {
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
            // Peers counting positions differently get the events of a re-run on a copy
            // of the engine as it is now (a copy costs nothing until the command writes).
            let otherEncodings = peers.encodings(receiving: name).subtracting(EncodingSet(encoding))
            let before: FormEngine? = otherEncodings.isEmpty ? nil : engine
            let result: CommandResult
            let start = events.count
            do {
                result = try engine.perform(command, on: name, encoding: encoding, events: &events)
            } catch {
                throw ProtocolError(error)
            }
            if holding {
                if events.count > start { hold(from: start, form: name, for: client, to: &w) }
            } else if !events.isEmpty {
                observer?.commandChanged(form: name, events: events, engine: engine)
                peers.deliver(events, encoding: encoding)
                if let before { deliverRecounted(command, on: name, from: encoding, to: otherEncodings, before: before, peers: &peers) }
                Daemon.drain(&events, for: client, to: &w)
            }
            return .command(result)
        }
    }

    /// Turning it off drops what is still held: output that could not be written.
    mutating func holdEvents(_ on: Bool) {
        holding = on
        if !on {
            events.removeAll(keepingCapacity: true)
            marks.removeAll(keepingCapacity: true)
        }
    }

    var heldCount: Int { events.count }

    mutating func takeHeld(_ w: inout JSONWriter, reusing spare: consuming HeldOutput?) -> HeldOutput {
        // The next stretch goes where the spare's was: fresh memory each time would cost
        // the serving thread a page fault every few kilobytes. Without one, it gets room
        // for as much as this stretch took (growing mid-burst copies a list whole).
        var next = spare ?? HeldOutput(bytes: JSONWriter(reservingCapacity: w.capacity))
        if next.records.capacity < events.capacity { next.records.reserveCapacity(events.capacity) }
        if next.marks.capacity < marks.capacity { next.marks.reserveCapacity(marks.capacity) }
        swap(&next.bytes, &w)
        swap(&next.records, &events)
        swap(&next.marks, &marks)
        return next
    }

    /// Holds the events of the command just carried out (`events[start...]`) that `client`
    /// gets, marked to go at the end of `w`. Those of a client that takes only some are
    /// written at once instead (rare, and in order all the same: held events go where
    /// their mark is, before anything written after it).
    private mutating func hold(from start: Int, form name: String, for client: ClientState, to w: inout JSONWriter) {
        observer?.commandChanged(form: name, events: Array(events[start...]), engine: engine)
        switch client.subscription.reach(name) {
        case .everything:
            marks.append(HeldOutput.Mark(offset: w.count, end: events.count, textSync: client.textSync, framing: client.framing))
            return
        case .some:
            for i in start..<events.count { Daemon.write(events[i], all: false, for: client, to: &w) }
        case .nothing:
            break
        }
        events.removeSubrange(start...)
    }

    /// Re-runs `command` on a copy of the engine as it was before it, once per encoding
    /// in `encodings`, and hands each run's events to the peers counting in it. Events
    /// without positions are the same in every encoding and are not recomputed.
    private mutating func deliverRecounted<Peers: EventPeers>(_ command: FormCommand, on name: String, from encoding: PositionEncoding,
                                                               to encodings: EncodingSet, before: FormEngine, peers: inout Peers) {
        let positional = events.contains { $0.event.carriesPositions }
        for other in encodings.encodings {
            guard positional else {
                peers.deliver(events, encoding: other)
                continue
            }
            var copy = before
            let recountedCommand = copy.command(command, on: name, recountedFrom: encoding, to: other)
            recounted.removeAll(keepingCapacity: true)
            // The command succeeded on this very state; in another encoding it does the same.
            let ok = (try? copy.perform(recountedCommand, on: name, encoding: other, events: &recounted)) != nil
            peers.deliver(ok && recounted.count == events.count ? recounted : events, encoding: other)
        }
        recounted.removeAll(keepingCapacity: true)
    }

    /// Writes the events `client` receives (its subscription decides), as its `textSync`
    /// shapes them. For `EventPeers.deliver`.
    public static func write(_ events: [EventRecord], for client: ClientState, to w: inout JSONWriter) {
        guard let all = receivesAll(events, client) else { return }
        for i in events.indices { write(events[i], all: all, for: client, to: &w) }
    }

    /// `write`, for the last use of a command's events: empties `events`, keeping its
    /// capacity. The records are written where they lie (`forEachInPlace`).
    static func drain(_ events: inout [EventRecord], for client: ClientState, to w: inout JSONWriter) {
        if let all = receivesAll(events, client) {
            events.forEachInPlace(events.indices) { write($0, all: all, for: client, to: &w) }
        }
        events.removeAll(keepingCapacity: true)
    }

    /// One event, as a line, if `client` gets it: `all` of its command's events, or this
    /// one by its subscription.
    private static func write(_ record: EventRecord, all: Bool, for client: ClientState, to w: inout JSONWriter) {
        guard all || client.subscription.admits(record) else { return }
        let start = w.count
        EventEncoder.write(record, textSync: client.textSync, to: &w)
        w.endMessage(from: start, client.framing)
    }

    /// Whether `client` gets all of `events` (true), only those its subscription admits
    /// (false), or none (nil). Reads the form of the first event only: one command's
    /// events all come from one form.
    private static func receivesAll(_ events: [EventRecord], _ client: ClientState) -> Bool? {
        // Not `events.first?.form`: that copies the whole first event.
        if events.isEmpty { return nil }
        switch client.subscription.reach(events[0].form) {
        case .nothing: return nil
        case .everything: return true
        case .some: return false
        }
    }

    private func writeMessage(_ w: inout JSONWriter, _ framing: Framing, _ body: (inout JSONWriter) -> Void) {
        let start = w.count
        body(&w)
        w.endMessage(from: start, framing)
    }
}
