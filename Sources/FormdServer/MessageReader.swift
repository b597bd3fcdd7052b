#if canImport(Glibc)
import Glibc
#endif
import FormdProtocol

/// Reads a file descriptor in large blocks and splits it into messages there, without ever
/// holding one longer than `maxLineBytes`: an over-long message is drained as it arrives
/// and reported once, so a hostile peer cannot make the daemon buffer without bound.
/// Of a dropped message only its first `prefixBytes` are kept, so the refusal can name the
/// request's `id` when it comes early in it.
///
/// The first bytes choose the framing (`ContentLengthHeader.framing(of:final:)`): lines
/// ended by `\n`, or `Content-Length` header blocks each followed by its body. Either way
/// a message is handed out as an `Item.message`.
public struct MessageReader {
    public enum Item {
        /// A message: a line without its `\n`, or a `Content-Length` message's body.
        case message(UnsafeRawBufferPointer)
        /// A line or body longer than the limit, already dropped; `prefix` is its start.
        case tooLong(prefix: UnsafeRawBufferPointer)
        /// A header block that cannot be read, and why; nothing more is handed out.
        case unreadableHeader(String)
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
    /// Nil until the first bytes have chosen it.
    public private(set) var framing: Framing? = nil
    /// `contentLength`: the length of the body whose header was read, while it arrives.
    private var bodyLength: Int? = nil
    /// `contentLength`: bytes of an over-long body still to drop.
    private var skipping = 0
    /// `contentLength`: a header block was unreadable; the rest of the input is ignored.
    private var headerLost = false

    public init(fd: Int32, maxLineBytes: Int, blockSize: Int = 1 << 16, prefixBytes: Int = DecodedLine.idPrefixBytes) {
        self.fd = fd
        // Far beyond any memory, and small enough that the growth arithmetic cannot overflow.
        self.maxLineBytes = min(maxLineBytes, Int.max >> 2)
        buffer = .allocate(byteCount: max(blockSize, 1024), alignment: 1)
        prefix = .allocate(byteCount: max(prefixBytes, 1), alignment: 1)
    }

    /// Bytes read but not yet handed out: the start of an unfinished message.
    public var unfinishedBytes: Int { end - start }

    /// Gives back the room a long message took once nothing unfinished is held, so an idle
    /// connection holds one block, not its longest message.
    public mutating func shrinkIfEmpty(to blockSize: Int = 1 << 16) {
        guard start == end, buffer.count > blockSize else { return }
        buffer.deallocate()
        buffer = .allocate(byteCount: blockSize, alignment: 1)
        start = 0
        end = 0
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
            if framing == nil { framing = ContentLengthHeader.framing(of: unread, final: false) }
            return .data
        }
        if n == 0 {
            if framing == nil { framing = ContentLengthHeader.framing(of: unread, final: true) }
            return .endOfInput
        }
        return errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK ? .interrupted : .failed(errno)
    }

    /// Hands out every complete message now in the buffer. The pointer is valid only during
    /// the call. At end of input, pass `final: true` to hand out an unterminated last line.
    public mutating func drain(final: Bool = false, _ body: (Item) -> Bool) {
        if framing != .ndjson {
            if framing == .contentLength { drainMessages(body) }
            return
        }
        while start < end {
            let base = buffer.baseAddress! + start
            guard let nl = memchr(base, 0x0A, end - start) else { break }
            let len = UnsafeRawPointer(nl) - UnsafeRawPointer(base)
            let wasDiscarding = discarding
            discarding = false
            start += len + 1
            let keepGoing = wasDiscarding ? body(.tooLong(prefix: keptPrefix)) : body(.message(UnsafeRawBufferPointer(start: base, count: len)))
            if !keepGoing { return }
        }
        if final && start < end {
            let base = buffer.baseAddress! + start
            let len = end - start
            start = end
            _ = discarding ? body(.tooLong(prefix: keptPrefix)) : body(.message(UnsafeRawBufferPointer(start: base, count: len)))
            discarding = false
        } else if final && discarding {
            discarding = false
            _ = body(.tooLong(prefix: keptPrefix))
        }
    }

    private var unread: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: buffer.baseAddress! + start, count: end - start)
    }

    /// `drain` for `Content-Length` framing: hands out each body once it is whole. An
    /// unfinished message at end of input is dropped.
    private mutating func drainMessages(_ body: (Item) -> Bool) {
        while !headerLost {
            if skipping > 0 {
                let n = min(skipping, end - start)
                let kept = min(n, prefix.count - prefixCount)
                if kept > 0 {
                    (prefix.baseAddress! + prefixCount).copyMemory(from: buffer.baseAddress! + start, byteCount: kept)
                    prefixCount += kept
                }
                start += n
                skipping -= n
                if skipping > 0 || !body(.tooLong(prefix: keptPrefix)) { return }
                continue
            }
            if let length = bodyLength {
                guard end - start >= length else { return }
                let bytes = UnsafeRawBufferPointer(start: buffer.baseAddress! + start, count: length)
                start += length
                bodyLength = nil
                if !body(.message(bytes)) { return }
                continue
            }
            guard start < end else { return }
            if let (length, blockEnd) = ContentLengthHeader.plainBlock(unread), length <= maxLineBytes {
                start += blockEnd
                bodyLength = length
                continue
            }
            guard let blockEnd = ContentLengthHeader.blockEnd(in: unread) else {
                if end - start < ContentLengthHeader.maxBlockBytes { return }
                loseHeader("the header block is longer than \(ContentLengthHeader.maxBlockBytes) bytes", body)
                return
            }
            let block = UnsafeRawBufferPointer(rebasing: unread[..<blockEnd])
            if blockEnd > ContentLengthHeader.maxBlockBytes {
                loseHeader("the header block is longer than \(ContentLengthHeader.maxBlockBytes) bytes", body)
                return
            }
            switch ContentLengthHeader.bodyLength(of: block) {
            case .failure(let error):
                loseHeader(error.reason, body)
                return
            case .success(let length):
                start += blockEnd
                if length > maxLineBytes {
                    skipping = length
                    prefixCount = 0
                } else {
                    bodyLength = length
                }
            }
        }
    }

    private mutating func loseHeader(_ reason: String, _ body: (Item) -> Bool) {
        headerLost = true
        start = end
        _ = body(.unreadableHeader(reason))
    }

    /// Moves the unfinished message to the front; grows the buffer for a long message up to
    /// the limit, and past the limit (lines only) drops what is held and starts discarding.
    private mutating func makeRoom() {
        if start > 0 {
            let pending = end - start
            if pending > 0 { memmove(buffer.baseAddress!, buffer.baseAddress! + start, pending) }
            start = 0
            end = pending
        }
        if discarding || headerLost {
            end = 0
        } else if end > maxLineBytes && framing != .contentLength {
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
