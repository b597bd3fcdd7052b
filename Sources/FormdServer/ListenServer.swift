#if canImport(Glibc)
import Glibc
#endif
import FormdCore
import FormdJSON
import FormdProtocol

/// `formd --listen PATH`: one daemon, one engine, any number of clients on a Unix socket.
///
/// A single thread runs a `poll` loop over the listening socket, every connection and a
/// wake-up pipe for signals; no thread per client. Each connection has its own line
/// reader, output buffer and `ClientState`; every line goes through the same
/// `Daemon.handle` as stdio, with the other connections as its `EventPeers`.
///
/// Fairness and backpressure: a connection gets at most one `read` per turn of the loop,
/// and its lines are handled only while less than `pauseAt` of its own output waits (so a
/// client that sends faster than it reads is slowed down, as a pipe would). Output is
/// written without blocking at the end of every turn, after the `--state` journal is
/// committed. A connection whose waiting output passes `maxClientBuffer` even so (it stopped
/// reading while others cause events) gets the rest of the line in flight and a final
/// `error` notification, its input is no longer read, and it is closed.
public final class ListenServer {
    public private(set) var daemon: Daemon
    private let listener: UnixSocket.Listener
    private let options: ListenOptions
    private var connections: [Connection] = []
    private let wakeFD: Int32
    private let pauseAt: Int
    private let uid = geteuid()
    private var shuttingDown = false
    private var listenerClosed = false
    private var acceptPausedUntil = 0.0
    /// The sink of a client's own events, reused line after line.
    private var ownEvents = BoundedEvents()
    /// The `--state` observer could not commit: nothing more is written.
    public private(set) var halted = false

    public init(daemon: Daemon, listener: UnixSocket.Listener, options: ListenOptions = ListenOptions(), wakeFD: Int32 = -1) {
        self.daemon = daemon
        self.listener = listener
        self.options = options
        self.wakeFD = wakeFD
        pauseAt = max(1, min(1 << 16, options.maxClientBuffer / 2))
    }

    /// Serves until `shutdown` from a client or a termination signal, then tells every
    /// client, gives them `closeGrace` to take their last output, and returns.
    public func run() {
        defer {
            // Changes no client was told about (notifications nobody receives) are kept too.
            if !halted, let observer = daemon.observer, !observer.commit(engine: daemon.engine) { halted = true }
            for c in connections where !c.closed { close(c, graceful: false) }
            connections.removeAll()
            if !listenerClosed { listener.close() }
        }
        while !halted {
            if Signals.terminationRequested { beginShutdown(.signal, asker: nil) }
            if shuttingDown && connections.isEmpty { return }
            var fds = pollSet()
            let ready = poll(&fds, nfds_t(fds.count), timeout())
            if ready < 0 {
                if errno != EINTR { return }
                for i in fds.indices { fds[i].revents = 0 }
            }
            var k = 0
            if wakeFD >= 0 {
                if fds[k].revents != 0 { drainWakeUp() }
                k += 1
            }
            if listens {
                if fds[k].revents & Int16(POLLIN) != 0 { acceptAll() }
                k += 1
            }
            // The connections polled, in order; accepted ones wait for the next turn.
            let polled = Array(connections.prefix(fds.count - k))
            for (i, c) in polled.enumerated() {
                let revents = fds[k + i].revents
                guard !c.closed && !shuttingDown && c.phase == .open else { continue }
                if c.stalled ? c.pending < pauseAt : revents != 0 {
                    serviceInput(c)
                }
            }
            expireIdleLines(now: now())
            flushAll()
        }
    }

    // MARK: The loop's parts

    private var listens: Bool { !shuttingDown && !listenerClosed }

    private func pollSet() -> [pollfd] {
        var fds: [pollfd] = []
        fds.reserveCapacity(connections.count + 2)
        if wakeFD >= 0 { fds.append(pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)) }
        if listens {
            let paused = now() < acceptPausedUntil
            fds.append(pollfd(fd: paused ? -1 : listener.fd, events: Int16(POLLIN), revents: 0))
        }
        for c in connections {
            var events: Int16 = 0
            if c.wantsInput(pauseAt: pauseAt) { events |= Int16(POLLIN) }
            if c.pending > 0 { events |= Int16(POLLOUT) }
            fds.append(pollfd(fd: c.fd, events: events, revents: 0))
        }
        return fds
    }

    /// Milliseconds to wait: none when lines are waiting to be handled, until the next
    /// grace deadline when a connection is closing, else forever.
    private func timeout() -> Int32 {
        if !shuttingDown && connections.contains(where: { $0.phase == .open && $0.stalled && $0.pending < pauseAt }) { return 0 }
        var wait = Double.infinity
        let t = now()
        for c in connections where c.phase != .open {
            wait = min(wait, c.lastProgress + options.closeGrace - t)
        }
        if listens && acceptPausedUntil > t { wait = min(wait, acceptPausedUntil - t) }
        for c in connections where c.phase == .open && !c.stalled && c.reader.unfinishedBytes > 0 {
            wait = min(wait, c.lastInput + options.lineTimeout - t)
        }
        if wait == .infinity { return -1 }
        return Int32(max(0, min(wait * 1000 + 1, 60_000)))
    }

    private func drainWakeUp() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeFD, &buffer, buffer.count) > 0 {}
    }

    private func acceptAll() {
        while true {
            let fd = accept(listener.fd, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    acceptPausedUntil = now() + 0.1
                }
                return
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            UnixSocket.setNonBlocking(fd)
            guard let peer = UnixSocket.peerUID(fd), peer == uid else {
                refuse(fd, peer: UnixSocket.peerUID(fd))
                continue
            }
            let served = connections.count { !$0.closed && $0.phase == .open }
            if served >= options.maxClients {
                turnAway(fd, ProtocolError(.limitExceeded, "limit maxClients exceeded: this formd serves at most \(options.maxClients) clients at once; try again later (raise it with --max-clients)"))
                warn("turned a connection away: \(served) clients are connected (--max-clients \(options.maxClients))")
                continue
            }
            connections.append(Connection(fd: fd, maxLineBytes: min(daemon.limits.maxLineBytes, Int.max >> 2) + 1, now: now()))
        }
    }

    /// Another user's connection: told why (one best-effort line) and closed.
    private func refuse(_ fd: Int32, peer: uid_t?) {
        let who = peer.map { "uid \($0)" } ?? "an unknown user"
        turnAway(fd, ProtocolError(.notPermitted, "connection refused: this formd serves only uid \(uid), not \(who)"))
        warn("refused a connection from \(who) (only uid \(uid) may connect)")
    }

    /// A connection not taken on: one best-effort `error` notification, then closed.
    private func turnAway(_ fd: Int32, _ error: ProtocolError) {
        var w = JSONWriter(reservingCapacity: 256)
        MessageWriter.writeErrorNotification(error, to: &w)
        w.writeRaw("\n")
        _ = w.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        _ = shutdown(fd, Int32(SHUT_WR))
        discardPendingInput(fd)
        Glibc.close(fd)
    }

    /// Ends a client for a limit on its input: its unfinished line is dropped, it gets a
    /// final `error` notification, and it is closed once that is written.
    private func drop(_ c: Connection, _ error: ProtocolError, now t: Double) {
        let start = c.out.count
        MessageWriter.writeErrorNotification(error, to: &c.out)
        c.out.endMessage(from: start, c.client.framing)
        c.reader.shrinkIfEmpty()
        c.unfinishedLineDropped = true
        c.finish(now: t)
    }

    /// What unfinished lines hold for every open connection together.
    private var unfinishedInput: Int {
        connections.reduce(0) { $0 + ($1.closed || $1.unfinishedLineDropped ? 0 : $1.reader.unfinishedBytes) }
    }

    /// Drops the clients whose unfinished line has waited longer than `lineTimeout`.
    private func expireIdleLines(now t: Double) {
        for c in connections where !c.closed && c.phase == .open && !c.stalled && c.reader.unfinishedBytes > 0
            && t - c.lastInput >= options.lineTimeout {
            drop(c, ProtocolError(.limitExceeded, "limit lineTimeout exceeded: an unfinished line of \(c.reader.unfinishedBytes) bytes waited \(Int(options.lineTimeout)) s for its end; it is dropped and the connection closed (raise it with --line-timeout)"), now: t)
        }
    }

    /// Reads once from `c` (unless lines are already waiting) and handles the complete
    /// lines, stopping when its own output reaches `pauseAt`.
    private func serviceInput(_ c: Connection) {
        if !c.stalled {
            switch c.reader.fill() {
            case .data:
                c.lastInput = now()
            case .endOfInput:
                c.inputEnded = true
            case .interrupted:
                return
            case .failed(let code):
                if code == EAGAIN || code == EWOULDBLOCK { return }
                close(c, graceful: false)
                return
            }
        }
        if let framing = c.reader.framing { c.client.framing = framing }
        handleLines(of: c)
        if c.reader.unfinishedBytes == 0 { c.reader.shrinkIfEmpty() }
        if c.phase == .open && c.reader.unfinishedBytes > 0 && unfinishedInput > options.maxUnfinishedInput {
            drop(c, ProtocolError(.limitExceeded, "limit maxUnfinishedInput exceeded: the unfinished lines of all clients would hold more than \(options.maxUnfinishedInput) bytes, so this one's is dropped and the connection closed (raise it with --max-unfinished-input)"), now: now())
            return
        }
        if let reason = c.client.unreadableHeader {
            warn("closing a client at message \(c.client.lineNumber): unreadable header: \(reason)")
            c.finish(now: now())
            return
        }
        // An unterminated last line is dropped: a client that went away mid-line (or
        // mid-request) changes nothing.
        if c.inputEnded && !c.stalled && c.phase == .open && !shuttingDown {
            c.finish(now: now())
        }
    }

    private func handleLines(of c: Connection) {
        c.stalled = false
        var peers = Peers(all: connections, asker: c, maxClientBuffer: options.maxClientBuffer, now: now())
        var asker: Connection? = nil
        c.reader.drain(final: false) { item in
            c.client.answerDelivery = .bounded(room: options.maxClientBuffer - c.pending, limit: options.maxClientBuffer)
            ownEvents.end = c.sent + options.maxClientBuffer
            ownEvents.overflowed = false
            daemon.handle(item.decoded(limits: daemon.limits), client: &c.client, into: &c.out, peers: &peers, events: &ownEvents)
            // An answer past the limit is dropped at once, not at the end of the turn: the
            // answers of many clients in one turn would all be held together.
            if c.pending > options.maxClientBuffer || ownEvents.overflowed {
                c.overflow(limit: options.maxClientBuffer, now: now())
                return false
            }
            if c.client.isShutDown {
                asker = c
                return false
            }
            if c.client.unreadableHeader != nil { return false }
            if c.pending >= pauseAt {
                c.stalled = true
                return false
            }
            return true
        }
        if let asker { beginShutdown(.request, asker: asker) }
    }

    /// Commits the journal, then writes what waits for every connection; disconnects the
    /// ones over their limit and closes the ones that are done.
    private func flushAll() {
        if halted { return }
        if connections.contains(where: { !$0.closed && $0.pending > 0 }) {
            if let observer = daemon.observer, !observer.commit(engine: daemon.engine) {
                halted = true
                return
            }
        }
        let t = now()
        for c in connections where !c.closed {
            if c.pending > 0 { write(c, now: t) }
            if c.closed { continue }
            if c.phase == .open && c.pending > options.maxClientBuffer {
                c.overflow(limit: options.maxClientBuffer, now: t)
                write(c, now: t)
                if c.closed { continue }
            }
            if c.phase != .open && (c.pending == 0 || t - c.lastProgress >= options.closeGrace) {
                close(c, graceful: true)
            }
        }
        connections.removeAll { $0.closed }
    }

    private func write(_ c: Connection, now t: Double) {
        var broken = false
        var progressed = false
        c.out.withUnsafeBytes { raw in
            while c.sent < raw.count {
                let n = send(c.fd, raw.baseAddress! + c.sent, raw.count - c.sent, Int32(MSG_NOSIGNAL))
                if n > 0 {
                    c.sent += n
                    progressed = true
                    continue
                }
                if n < 0 && errno == EINTR { continue }
                if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
                broken = true
                return
            }
        }
        if broken {
            close(c, graceful: false)
            return
        }
        if progressed {
            c.lastProgress = t
            c.midLine = c.out[c.sent - 1] != UInt8(ascii: "\n")
        }
        c.compact()
    }

    /// Stops taking connections and input, and queues a `shutdown` notification for every
    /// client but the one that asked for it (which has its response).
    private func beginShutdown(_ reason: MessageWriter.ShutdownReason, asker: Connection?) {
        guard !shuttingDown else { return }
        shuttingDown = true
        listener.close()
        listenerClosed = true
        let t = now()
        for c in connections where !c.closed && c.phase == .open {
            if c !== asker {
                let start = c.out.count
                MessageWriter.writeShutdownNotification(reason, to: &c.out)
                c.out.endMessage(from: start, c.client.framing)
            }
            c.finish(now: t)
        }
    }

    private func close(_ c: Connection, graceful: Bool) {
        if graceful { discardPendingInput(c.fd) }
        Glibc.close(c.fd)
        c.reader.close()
        c.closed = true
    }

    /// Reads and drops what a peer already sent (up to 1 MiB, without waiting): closing a
    /// socket with unread input makes the peer's read fail with ECONNRESET instead of
    /// reaching the end of what was written to it.
    private func discardPendingInput(_ fd: Int32) {
        var scratch = [UInt8](repeating: 0, count: 4096)
        var budget = 1 << 20
        while budget > 0 {
            let n = read(fd, &scratch, scratch.count)
            if n <= 0 { break }
            budget -= n
        }
    }

    private func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private func warn(_ message: String) {
        let text = Array("formd: \(message)\n".utf8)
        _ = text.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
