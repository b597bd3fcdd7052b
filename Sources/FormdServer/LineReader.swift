#if canImport(Glibc)
import Glibc
#endif

/// Reads a file descriptor in large blocks and splits it into lines there, without ever
/// holding a line longer than `maxLineBytes`: an over-long line is drained to its newline
/// and reported once, so a hostile peer cannot make the daemon buffer without bound.
/// Of a dropped line only its first `prefixBytes` are kept, so the refusal can name the
/// request's `id` when it comes early in the line.
public struct LineReader {
    public enum Item {
        case line(UnsafeRawBufferPointer)
        /// A line longer than the limit, already dropped; `prefix` is its start.
        case tooLong(prefix: UnsafeRawBufferPointer)
    }

    public enum ReadResult: Equatable {
        case data, endOfInput, interrupted, failed(Int32)
    }

    public let fd: Int32
    private let maxLineBytes: Int
    private var buffer: UnsafeMutableRawBufferPointer
    /// Bytes [start, end) are read but not yet handed out.
    private var start = 0
    private var end = 0
    /// The last read took less than there was room for: the input had nothing more ready
    /// at that moment, so the caller can flush without asking the kernel again.
    public private(set) var drainedInput = false
    /// Inside an over-long line: bytes are dropped until the next newline.
    private var discarding = false
    /// The start of the over-long line being dropped: `prefix[0..<prefixCount]`.
    private let prefix: UnsafeMutableRawBufferPointer
    private var prefixCount = 0

    public init(fd: Int32, maxLineBytes: Int, blockSize: Int = 1 << 16, prefixBytes: Int = DecodedLine.idPrefixBytes) {
        self.fd = fd
        // Far beyond any memory, and small enough that the growth arithmetic cannot overflow.
        self.maxLineBytes = min(maxLineBytes, Int.max >> 2)
        buffer = .allocate(byteCount: max(blockSize, 1024), alignment: 1)
        prefix = .allocate(byteCount: max(prefixBytes, 1), alignment: 1)
    }

    /// Frees the buffers; the reader must not be used afterwards.
    public mutating func close() {
        buffer.deallocate()
        prefix.deallocate()
    }

    private var keptPrefix: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: prefix[0..<prefixCount]) }

    /// One `read(2)` into free space. `interrupted` (EINTR, or EAGAIN on a non-blocking
    /// descriptor): nothing was read; the caller looks at its flags and tries again.
    public mutating func fill() -> ReadResult {
        makeRoom()
        let room = buffer.count - end
        let n = read(fd, buffer.baseAddress! + end, room)
        if n > 0 {
            end += n
            drainedInput = n < room
            return .data
        }
        if n == 0 { return .endOfInput }
        return errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK ? .interrupted : .failed(errno)
    }

    /// Hands out every complete line now in the buffer. The pointer is valid only during
    /// the call. At end of input, pass `final: true` to hand out an unterminated last line.
    public mutating func drain(final: Bool = false, _ body: (Item) -> Bool) {
        while start < end {
            let base = buffer.baseAddress! + start
            guard let nl = memchr(base, 0x0A, end - start) else { break }
            let len = UnsafeRawPointer(nl) - UnsafeRawPointer(base)
            let wasDiscarding = discarding
            discarding = false
            start += len + 1
            let keepGoing = wasDiscarding ? body(.tooLong(prefix: keptPrefix)) : body(.line(UnsafeRawBufferPointer(start: base, count: len)))
            if !keepGoing { return }
        }
        if final && start < end {
            let base = buffer.baseAddress! + start
            let len = end - start
            start = end
            _ = discarding ? body(.tooLong(prefix: keptPrefix)) : body(.line(UnsafeRawBufferPointer(start: base, count: len)))
            discarding = false
        } else if final && discarding {
            discarding = false
            _ = body(.tooLong(prefix: keptPrefix))
        }
    }

    /// Moves the unfinished line to the front; grows the buffer for a long line up to the
    /// limit, and past the limit drops what is held and starts discarding.
    private mutating func makeRoom() {
        if start > 0 {
            let pending = end - start
            if pending > 0 { memmove(buffer.baseAddress!, buffer.baseAddress! + start, pending) }
            start = 0
            end = pending
        }
        if discarding {
            end = 0
        } else if end > maxLineBytes {
            // The held bytes are the line's start: keep a little of it, drop the rest.
            prefixCount = min(end, prefix.count)
            prefix.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<prefixCount]))
            discarding = true
            end = 0
        } else if end == buffer.count {
            let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: min(buffer.count * 2, maxLineBytes + 1 + 1024), alignment: 1)
            bigger.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<end]))
            buffer.deallocate()
            buffer = bigger
        }
    }
}
