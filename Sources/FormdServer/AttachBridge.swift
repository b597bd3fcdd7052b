#if canImport(Glibc)
import Glibc
#endif
import FormdProtocol

/// `formd attach PATH`: stdin and stdout bridged to a `--listen` daemon's socket, so any
/// stdio client (the shell library, the editor plugins) can attach unchanged.
///
/// The bytes go through unchanged, so the daemon sees the client's own framing (lines or
/// `Content-Length` messages) and answers in it.
///
/// End of stdin ends the conversation as end of input does for stdio: an unterminated
/// last line is completed with `\n` (so it is handled, as stdio handles it; not in
/// `Content-Length` framing, where an unfinished message is dropped), the socket's
/// sending side is shut down, and the bridge keeps copying the daemon's output until the
/// daemon closes the connection, which it does once everything is answered. The bridge
/// also exits when the daemon closes first or stdout is closed.
///
/// A daemon that closes first says why in its last message (`AttachEnding`): a `shutdown`
/// notification, the answer to a `shutdown` this client sent, or an `error` notification
/// that ends the connection. A close after none of those is a lost daemon (killed, crashed),
/// which the bridge reports and exits 1 for, so a client that sees only the end of its
/// input can tell.
public enum AttachBridge {
    /// Connects to the daemon at `path`.
    public static func connect(to path: String) throws(SocketError) -> Int32 {
        switch UnixSocket.connect(to: path) {
        case .success(let fd):
            return fd
        case .failure(let e):
            switch e.code {
            case ENOENT: throw SocketError("no formd is listening on \(path) (no such socket; start one with formd --listen \(path))")
            case ECONNREFUSED where !isSocket(path): throw SocketError("\(path) is not a socket (give the path formd --listen was started with)")
            case ECONNREFUSED: throw SocketError("no formd is listening on \(path) (the socket is left from a daemon that is gone)")
            case EACCES: throw SocketError("cannot connect to \(path): permission denied (the socket belongs to another user)")
            case ENOTSOCK: throw SocketError("\(path) is not a socket")
            default: throw SocketError("cannot connect to \(path): \(e.description)")
            }
        }
    }

    /// Connecting to a file that is not a socket is refused like a stale socket; `stat` tells them apart.
    private static func isSocket(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
    }

    /// Copies both ways until the daemon closes the connection or stdout goes away.
    /// Returns the exit status: 0 when the conversation ended in order, or 1 (a message on
    /// stderr naming `path`) when the connection was lost or the daemon ended it.
    public static func run(socket fd: Int32, path: String, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        var ending = AttachEnding()
        UnixSocket.setNonBlocking(fd)
        var toDaemon: [UInt8] = []
        var sent = 0
        var inputOpen = true
        var lastByte: UInt8? = nil
        /// The first bytes of stdin, until they show its framing.
        var head: [UInt8] = []
        var framing: Framing? = nil
        var halfClosed = false
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        defer { Glibc.close(fd) }
        while true {
            var fds: [pollfd] = []
            let waiting = toDaemon.count - sent
            fds.append(pollfd(fd: fd, events: Int16(POLLIN) | (waiting > 0 ? Int16(POLLOUT) : 0), revents: 0))
            if inputOpen && waiting == 0 { fds.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0)) }
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                return 1
            }
            // From the daemon to stdout.
            if fds[0].revents != 0 {
                let n = read(fd, &buffer, buffer.count)
                if n > 0 {
                    ending.received(buffer[0..<n])
                    if !writeAll(output, buffer, count: n) { return 0 }
                } else if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                    // Closed (or reset: a daemon killed with input it had not read).
                    return ending.status(inputEnded: halfClosed, path: path)
                }
            }
            // From stdin to the daemon.
            if fds.count > 1 && fds[1].revents != 0 {
                let n = read(input, &buffer, buffer.count)
                if n > 0 {
                    ending.sent(buffer[0..<n])
                    toDaemon.append(contentsOf: buffer[0..<n])
                    lastByte = buffer[n - 1]
                    if framing == nil {
                        head.append(contentsOf: buffer[0..<min(n, 32)])
                        framing = head.withUnsafeBytes { ContentLengthHeader.framing(of: $0, final: false) }
                    }
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    inputOpen = false
                    let lines = framing ?? head.withUnsafeBytes { ContentLengthHeader.framing(of: $0, final: true) } == .ndjson
                    if lines, let lastByte, lastByte != UInt8(ascii: "\n") { toDaemon.append(UInt8(ascii: "\n")) }
                }
            }
            if toDaemon.count > sent {
                let n = toDaemon.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
                if n > 0 {
                    sent += n
                    if sent == toDaemon.count {
                        toDaemon.removeAll(keepingCapacity: true)
                        sent = 0
                    }
                } else if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                    // The daemon stopped reading (it closed the connection): take what it
                    // still says, then exit.
                    inputOpen = false
                    toDaemon.removeAll()
                    sent = 0
                }
            }
            if !inputOpen && toDaemon.count == sent && !halfClosed {
                shutdown(fd, Int32(SHUT_WR))
                halfClosed = true
            }
        }
    }

    /// Writes all of `bytes[0..<count]` (blocking); false when the output is gone.
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, count - offset) }
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            return false
        }
        return true
    }
}
