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

    public init(fd: Int32) { self.fd = fd }

    public var pendingBytes: Int { writer.count }

    /// The reader is known to be gone (the pipe reported an error or hang-up): nothing
    /// buffered can be written any more.
    public mutating func markClosed() {
        isClosed = true
        writer.removeAll()
    }

    /// Writes everything buffered; on a closed pipe (EPIPE) or another write error, marks
    /// the channel closed and drops the rest instead of spinning.
    public mutating func flush() {
        defer { writer.removeAll() }
        if isClosed { return }
        writer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 { offset += n; continue }
                if n < 0 && errno == EINTR { continue }
                if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    // A non-blocking descriptor inherited from the parent: wait until it drains.
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    if poll(&p, 1, -1) >= 0 || errno == EINTR { continue }
                }
                isClosed = true
                return
            }
        }
    }
}
