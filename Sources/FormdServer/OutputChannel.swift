#if canImport(Glibc)
import Glibc
#endif
import FormdJSON

/// Collects output in one buffer and writes it with as few `write(2)` calls as possible.
///
/// The caller flushes when its input has nothing more ready, so a burst of commands is
/// answered in a few large writes while a single interactive request is answered at once.
public struct OutputChannel {
    public var writer = JSONWriter(reservingCapacity: 1 << 16)
    public let fd: Int32
    /// Set when the reader went away (EPIPE) or writing failed: nothing more can be said.
    public private(set) var isClosed = false
    /// The error of a write that failed otherwise than on a closed pipe (ENOSPC, EIO):
    /// formd says so and exits 1, where a reader that went away is a quiet end.
    public private(set) var failure: Int32? = nil

    public init(fd: Int32) { self.fd = fd }

    public var pendingBytes: Int { writer.count }

    /// The reader is known to be gone (the pipe reported an error or hang-up): nothing
    /// buffered can be written any more.
    public mutating func markClosed(failure: Int32? = nil) {
        isClosed = true
        if self.failure == nil { self.failure = failure }
        writer.removeAll()
    }

    /// Writes everything buffered; on a closed pipe (EPIPE) or another write error, marks
    /// the channel closed and drops the rest instead of spinning. With nothing buffered it
    /// does not touch `Signals.writing`: a burst's thread flushing nothing must not clear
    /// the mark of the serving thread blocked in its own flush.
    public mutating func flush() {
        defer { writer.removeAll() }
        if isClosed || writer.count == 0 { return }
        Signals.writing(true)
        defer { Signals.writing(false) }
        writer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                var length = raw.count - offset
                if Signals.terminationRequested {
                    // Stopping: only what the reader takes at once, in pieces a pipe with
                    // room accepts without blocking; a reader that does not read keeps
                    // formd no longer than `stopWaitMilliseconds`.
                    guard OutputChannel.writable(fd) else { isClosed = true; return }
                    length = min(length, Int(PIPE_BUF))
                }
                let n = write(fd, raw.baseAddress! + offset, length)
                if n > 0 { offset += n; continue }
                if n < 0 && errno == EINTR { continue }
                if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    // A non-blocking descriptor inherited from the parent: wait until it drains.
                    if OutputChannel.writable(fd, waitingMilliseconds: -1) { continue }
                    isClosed = true  // stopping, and the reader takes nothing
                    return
                }
                if n == 0 || errno != EPIPE { failure = n == 0 ? EIO : errno }
                isClosed = true
                return
            }
        }
    }

    /// How long a stopping formd waits for its reader to take more output.
    static let stopWaitMilliseconds: Int32 = 50

    /// True once `fd` can take output (or has failed, which the write then reports),
    /// within `waitingMilliseconds` (-1: however long, unless a termination signal comes).
    private static func writable(_ fd: Int32, waitingMilliseconds: Int32 = stopWaitMilliseconds) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        while true {
            let wait = Signals.terminationRequested ? stopWaitMilliseconds : waitingMilliseconds
            let n = poll(&p, 1, wait)
            if n > 0 { return true }
            if n == 0 { return false }
            if errno != EINTR { return true }
        }
    }
}
