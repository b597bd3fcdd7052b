#if canImport(Glibc)
import Glibc
#endif
import FormdServer

/// One client connection to a `formd --listen` daemon: request lines out, output lines in,
/// each read bounded by a deadline. Used by `formd call`, `formd wait` and `formd tui --socket`.
public final class DaemonConnection {
    public let fd: Int32
    /// The socket path, for messages.
    public let path: String
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    private var start = 0
    /// How far the unread part is known to hold no newline (a long line arrives in many reads).
    private var scanned = 0

    /// Connects to the daemon at `path`; the error says what to do when nothing listens there.
    public init(socket path: String) throws(SocketError) {
        fd = try AttachBridge.connect(to: path)
        self.path = path
        signal(SIGPIPE, SIG_IGN)
    }

    deinit { close(fd) }

    /// Writes all of `bytes`; false when the daemon has closed the connection.
    public func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n > 0 { offset += n; continue }
                if n < 0 && errno == EINTR { continue }
                return false
            }
            return true
        }
    }

    /// What one `readLine` found.
    public enum Read {
        /// One output line, without its `\n`.
        case line([UInt8])
        /// The daemon closed the connection (or it broke).
        case closed
        /// The deadline passed first.
        case timedOut
    }

    /// The next line; waits until `deadline` (a `MonotonicClock` time; nil: for ever).
    public func readLine(until deadline: Double?) -> Read {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if let line = bufferedLine() { return .line(line) }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, MonotonicClock.milliseconds(until: deadline))
            if ready < 0 {
                if errno == EINTR { continue }
                return .closed
            }
            if ready == 0 { return .timedOut }
            let n = read(fd, &chunk, chunk.count)
            if n > 0 {
                // Drop what was read: all of it, or a large prefix (a long-lived connection).
                if start > 0 && (start == buffer.count || start >= 1 << 16) {
                    buffer.removeFirst(start)
                    scanned -= start
                    start = 0
                }
                buffer.append(contentsOf: chunk[0..<n])
            } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                return .closed
            }
        }
    }

    /// A whole line already read, if any, without waiting.
    public func bufferedLine() -> [UInt8]? {
        guard let newline = buffer[max(start, scanned)...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = buffer.count
            return nil
        }
        let line = Array(buffer[start..<newline])
        start = newline + 1
        scanned = start
        return line
    }
}

/// Seconds on the monotonic clock, for deadlines that a change of the wall clock cannot move.
public enum MonotonicClock {
    public static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// A `poll` timeout: milliseconds until `deadline` (rounded up), 0 once past, -1 for none.
    public static func milliseconds(until deadline: Double?) -> Int32 {
        guard let deadline else { return -1 }
        let left = deadline - now()
        if left <= 0 { return 0 }
        return Int32(min((left * 1000).rounded(.up), Double(Int32.max)))
    }
}
