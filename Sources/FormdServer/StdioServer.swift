#if canImport(Glibc)
import Glibc
#endif
import FormdJSON
import FormdProtocol

/// Runs a session over a pair of file descriptors until end of input, `shutdown`, a
/// termination signal or a closed output.
///
/// Output collects in one buffer and is flushed when the input has nothing more ready, so
/// a burst of commands is answered in a few large writes while a single interactive
/// request is answered at once. A single request is read, decoded and carried out on this
/// thread; once a read fills a whole block (a burst), a `BurstIO` thread reads and
/// decodes the rest of the burst on the other core while this one works the engine.
///
/// Between reads it waits in `poll` on the input, the output and the signal pipe, so it
/// sleeps while idle, wakes at once for SIGTERM/SIGINT, and notices a reader that closed
/// the output even while no input comes (then it stops quietly: nothing could be said).
public struct StdioServer {
    public private(set) var session: Session
    private var output: OutputChannel
    private let inputFD: Int32
    /// Flush anyway once this much output is waiting, even if more input is ready.
    private let flushThreshold = 1 << 16
    /// Serving, or over and why.
    private var lifecycle = StdioLifecycle.serving
    /// The session's observer could not commit: nothing more is written.
    public var halted: Bool { lifecycle == .ended(.journalFailed) }
    /// Why writing the output failed, when it was not the reader going away (EPIPE).
    public var outputFailure: Int32? { output.failure }
    /// The second thread of the burst being served: it reads ahead and writes the output.
    private var burst: BurstIO? = nil
    /// The event sink: events stay records, for the burst's thread to encode during a
    /// burst, else for `flush` (so a large one can be streamed in its place).
    private var held = HeldEvents()
    /// How a burst's work is shared between the two threads.
    var workSharing = WorkSharing.adaptive

    /// Which of the two threads takes the work of a burst block that either can do: its
    /// compact responses are written by the burst's thread (`HeldEvents.respond`), or its
    /// spent lines are freed by the serving thread (the burst's thread frees them otherwise,
    /// as it reuses their list).
    enum WorkSharing {
        /// The thread that is ahead: while the burst's thread has the next block ready, it
        /// would wait for this one anyway, so it takes the responses; while it has none,
        /// it is behind, so the serving thread frees the lines.
        case adaptive
        /// Always one way: for tests, which hold both ways to the same output.
        case toBurstThread, toServingThread

        /// Whether the burst's thread takes this block's responses (else the serving
        /// thread frees its lines).
        func burstThreadTakes(nextBlockReady: Bool) -> Bool {
            switch self {
            case .adaptive: nextBlockReady
            case .toBurstThread: true
            case .toServingThread: false
            }
        }
    }
    /// An emptied stretch of held output, lent to the next one `flush` writes.
    private var spareStretch: HeldStretch? = nil
    /// Events held for the burst thread before they are handed over even mid-block,
    /// so a block of commands with many events does not pile up records.
    private let heldThreshold = 4096
    /// Bytes of events held (`HeldEvents.bytes`) before they are handed over even mid-block,
    /// so a few events with long texts do not pile up either.
    private let heldBytesThreshold = 1 << 20

    public init(session: Session, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.session = session
        self.session.client.answerDelivery = .streamed
        self.inputFD = input
        self.output = OutputChannel(fd: output)
    }

    /// The input's `Content-Length` header block could not be read: the conversation ended
    /// there (said on stderr and in an `error` notification), and formd exits 1.
    public var lostFraming: Bool { lifecycle == .ended(.unreadableHeader) }

    /// Returns when the conversation is over; everything answered has been flushed.
    public mutating func run() {
        defer {
            if let reason = session.unreadableHeader {
                let text = Array("formd: unreadable header on stdin at message \(session.lineNumber): \(reason); stopping\n".utf8)
                _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            }
        }
        // One byte of slack for a trailing `\r`, which the decoder strips before it
        // measures the line against the limit.
        let input = InputLines(fd: inputFD, maxLineBytes: min(session.limits.maxLineBytes, Int.max >> 2) + 1)
        while serving() {
            guard waitForInput() else { break }
            let result = input.reader.fill()
            if let framing = input.reader.framing, framing != session.framing { session.framing = framing }
            switch result {
            case .data:
                handleLines(from: &input.reader, final: false)
            case .endOfInput:
                handleLines(from: &input.reader, final: true)
                end(.endOfInput)
                flush()
                return
            case .interrupted:
                continue
            case .failed:
                end(.inputFailed)
                flush()
                return
            }
            // A short read already says the input is drained; only after a full one is it
            // worth a poll to see whether more of a burst is waiting. A burst then goes to
            // a `BurstIO` thread; a read that took exactly what was there is answered now,
            // not after input that may never come.
            let moreWaiting = !input.reader.drainedInput && inputReady()
            if moreWaiting && serving(), let burst = BurstIO(input: input, output: output.fd, limits: session.limits,
                                                               flushThreshold: flushThreshold) {
                guard serve(burst) else { break }
                continue
            }
            if output.pendingBytes >= flushThreshold || ((output.pendingBytes > 0 || held.count > 0) && !moreWaiting) {
                flush()
            }
        }
        flush()
    }

    /// Carries out the lines a `BurstIO` decodes until its burst is over. False when the
    /// conversation ended meanwhile (the output is flushed then).
    private mutating func serve(_ burst: BurstIO) -> Bool {
        // What was written before the burst goes out before anything the burst writes.
        flush()
        self.burst = burst
        defer {
            // Whatever the burst answered goes out, in order, before the thread ends; what
            // could not be written is dropped.
            flush()
            held.removeAll()
            held.holdsResponses = false
            self.burst = nil
            burst.finish()
            if burst.outputClosed { output.markClosed(failure: burst.outputFailure) }
        }
        while var block = burst.blocks.take() {
            // The burst thread reports a signal only after the blocks queued before it.
            guard serving() else { return false }
            let burstThreadTakes = workSharing.burstThreadTakes(nextBlockReady: !burst.blocks.isEmpty)
            held.holdsResponses = burstThreadTakes
            // Once a line stops the conversation, the remaining ones are left unapplied.
            // Each line is moved out of its block, handled, and put back spent, to be freed
            // here or by the burst thread as it reuses the list for a later block's.
            if !handleEach(of: &block.lines) { return false }
            if !burstThreadTakes { block.lines.freeSpent() }
            burst.recycle(&block.lines)
            switch block.after {
            case .more:
                // Each block's output is handed over as soon as it is ready.
                flush()
            case .burstOver:
                flush()
                return true
            case .ended(let why):
                if why == .outputGone { output.markClosed() }
                end(why)
                return false
            }
        }
        return true
    }

    /// Handles a block's lines in order, each moved out, handled, and put back spent; false
    /// once a line stops the conversation (the rest are left unapplied). The field a line
    /// names is looked up ahead in two stages, two lines and one line before its own
    /// (`FormEngine.prefetchSlot`, `prefetchField`), so its cache misses overlap the lines
    /// before it instead of stalling its own; only while some form is large enough for
    /// that to pay (`FormEngine.lookupsMissTheCache`, asked once a block).
    private mutating func handleEach(of lines: inout [DecodedLine]) -> Bool {
        let ahead = session.engine.lookupsMissTheCache
        return lines.withUnsafeMutableBufferPointer { lines in
            let start = lines.baseAddress!
            var next = ahead && lines.count > 1 ? session.prefetchSlot(for: start + 1) : nil
            for i in lines.indices {
                if ahead {
                    let later = i &+ 2 < lines.count ? session.prefetchSlot(for: start + i + 2) : nil
                    if let next { session.prefetchField(next) }
                    next = later
                }
                let slot = start + i
                let (spent, more) = handle(spent: slot.move())
                slot.initialize(to: spent)
                if !more { return false }
            }
            return true
        }
    }

    /// Writes the output, after the session's observer has committed every change the
    /// output reveals; if it cannot, the output is dropped and the server halts.
    private mutating func flush() {
        if halted { return }
        if let observer = session.observer, !observer.commit(engine: session.engine) {
            lifecycle = .ended(.journalFailed)
            return
        }
        if let burst {
            if output.pendingBytes > 0 || held.count > 0 {
                let bytes = output.pendingBytes + held.bytes
                burst.handOver(held.take(&output.writer, reusing: burst.takeSpare()), bytes: bytes)
            }
            // Backpressure by bytes: no further line while too much output waits.
            burst.waitForRoom()
        } else {
            writeHeldEvents()
            output.flush()
        }
    }

    /// Without a burst thread, the events held since the last flush are encoded here, in
    /// their places in the output (a large one streamed: `OutputChannel.writeEvent`).
    private mutating func writeHeldEvents() {
        guard held.count > 0 else { return }
        var stretch = held.take(&output.writer, reusing: spareStretch.take())
        stretch.write(to: &output, flushingAt: flushThreshold)
        stretch.removeAll()
        spareStretch = stretch
    }

    /// Handles every complete line read so far. Output is flushed as soon as a threshold's
    /// worth is waiting, even mid-block, so a block of small requests with large answers
    /// (64 KiB of `getState` on a big form) never piles up in memory; once the output is
    /// gone or the server halted, the remaining lines are left unapplied.
    private mutating func handleLines(from reader: inout MessageReader, final: Bool) {
        let limits = session.limits
        reader.drain(final: final) { item in handle(item.decoded(limits: limits)) }
    }

    /// Handles one line read on this thread, flushing once a threshold's worth of output
    /// waits. False when no further line may be applied: after `shutdown` or an unreadable
    /// header, or once the output is gone or the server halted.
    private mutating func handle(_ line: consuming DecodedLine) -> Bool {
        // Its events are held as in a burst (`held`, written by `flush`), so a large one is
        // streamed in its place; the line, given back spent, dies here.
        handle(spent: line).more
    }

    /// `handle` in a burst: the events are held for the burst thread, and the line is given
    /// back spent, for its block (the burst thread frees it).
    private mutating func handle(spent line: consuming DecodedLine) -> (spent: DecodedLine, more: Bool) {
        let spent = session.handle(spent: line, into: &output.writer, holding: &held)
        return (spent, handled())
    }

    /// What follows each line: a large answer streamed, output flushed past a threshold,
    /// and whether the conversation goes on.
    private mutating func handled() -> Bool {
        if session.client.streamedAnswer != nil { streamAnswer() }
        if output.pendingBytes >= flushThreshold || held.count >= heldThreshold || held.bytes >= heldBytesThreshold { flush() }
        if session.isShutDown { end(.shutdown) }
        if session.unreadableHeader != nil { end(.unreadableHeader) }
        if output.isClosed || burst?.outputClosed == true { end(.outputGone) }
        return lifecycle == .serving
    }

    /// Writes the large `getState` or `submit` answer the line left (`ClientState.streamedAnswer`) a
    /// piece at a time, flushing each `flushThreshold`: never held whole, and under
    /// `--max-pending-output` like any output. A `Content-Length` header needs its size
    /// first: the answer is counted then (`PiecewiseAnswer.count`, nothing kept).
    private mutating func streamAnswer() {
        guard var answer = session.client.streamedAnswer else { return }
        session.client.streamedAnswer = nil
        let framing = session.framing
        if framing == .contentLength {
            output.writer.writeContentLengthHeader(bodyBytes: answer.count())
        }
        while answer.writeNext(to: &output.writer, atLeast: flushThreshold) {
            if output.pendingBytes >= flushThreshold { flush() }
            // Nothing more can be said; the rest is not worth encoding.
            if halted || output.isClosed || burst?.outputClosed == true { return }
        }
        if framing == .ndjson { output.writer.writeRaw("\n") }
    }

    /// Still serving; a termination signal that arrived, or an output found closed, ends
    /// it here.
    private mutating func serving() -> Bool {
        if output.isClosed { end(.outputGone) }
        if Signals.terminationRequested { end(.terminationSignal) }
        return lifecycle == .serving
    }

    /// Ends the conversation for `why`, unless it is over already.
    private mutating func end(_ why: StdioLifecycle.Ending) {
        if lifecycle == .serving { lifecycle = .ended(why) }
    }

    /// Sleeps until the input has something to read. False when a termination signal
    /// arrived or the output's reader went away instead.
    private mutating func waitForInput() -> Bool {
        switch InputWait.wait(input: inputFD, output: output.fd) {
        case .ready: return true
        case .outputGone:
            output.markClosed()
            end(.outputGone)
        case .terminationSignal: end(.terminationSignal)
        case .stop: break
        }
        return false
    }

    /// True when a read would not block: more of the burst is already waiting.
    private func inputReady() -> Bool { InputWait.isReady(inputFD) }
}
