#if canImport(Glibc)
import Glibc
#endif
import FormdJSON

/// Runs a session over a pair of file descriptors until end of input, `shutdown`, a
/// termination signal or a closed output.
public struct StdioServer {
    public private(set) var session: Session
    private var output: OutputChannel
    private let inputFD: Int32
    /// Flush anyway once this much output is waiting, even if more input is ready.
    private let flushThreshold = 1 << 16
    /// The session's observer could not commit: nothing more is written.
    public private(set) var halted = false

    public init(session: Session, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.session = session
        self.inputFD = input
        self.output = OutputChannel(fd: output)
    }

    /// Returns when the conversation is over; everything answered has been flushed.
    public mutating func run() {
        // The reader is local so that handing its lines to `self` never overlaps an
        // access to the reader itself.
        // One byte of slack for a trailing `\r`, which the session strips before it
        // measures the line against the limit.
        var reader = LineReader(fd: inputFD, maxLineBytes: session.limits.maxLineBytes + 1)
        defer { reader.close() }
        while !session.isShutDown && !output.isClosed && !halted && !Signals.terminationRequested {
            let result = reader.fill()
            switch result {
            case .data:
                handleLines(from: &reader, final: false)
            case .endOfInput:
                handleLines(from: &reader, final: true)
                flush()
                return
            case .interrupted:
                continue
            case .failed:
                flush()
                return
            }
            if output.pendingBytes >= flushThreshold || (output.pendingBytes > 0 && !inputReady()) {
                flush()
            }
        }
        flush()
    }

    /// Writes the output, after the session's observer has committed every change the
    /// output reveals; if it cannot, the output is dropped and the server halts.
    private mutating func flush() {
        if halted { return }
        if let observer = session.observer, !observer.commit(engine: session.engine) {
            halted = true
            return
        }
        output.flush()
    }

    private mutating func handleLines(from reader: inout LineReader, final: Bool) {
        reader.drain(final: final) { item in
            switch item {
            case .line(let bytes):
                session.handleLine(bytes, into: &output.writer)
            case .tooLong:
                session.skipLine()
                session.refuseLongLine(into: &output.writer)
            }
            return !session.isShutDown
        }
    }

    /// True when a read would not block: more of the burst is already waiting.
    private func inputReady() -> Bool {
        var p = pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }
}
