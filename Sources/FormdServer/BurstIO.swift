#if canImport(Glibc)
import Glibc
#endif
import FormdJSON
import Synchronization

/// The second thread of a stdio burst, which does the burst's input and output while the
/// serving thread works the engine. It reads the input in large blocks, splits and decodes
/// the lines (`DecodedLine` needs nothing of the daemon's state) and hands them over in
/// order; when the input has nothing more ready it hands over its last block.
///
/// It also writes the burst's output: the serving thread hands over its output with the
/// events still as records and the compact responses still as values (`HeldStretch`), and
/// this thread encodes, writes and frees them between reads, so the two cores share the
/// work of a burst about evenly.
///
/// What it has been handed and not yet written is counted (`PendingOutput`): past
/// `--max-pending-output` the serving thread waits (`waitForRoom`), and this thread reads
/// no further input until it has written enough, so a reader that stops reading stops the
/// burst, not just its line count.
///
/// Only bursts are worth it: waking a sleeping thread costs tens of microseconds on a
/// virtual machine, far more than one interactive request takes, so the serving thread
/// reads single requests itself and starts a `BurstIO` only after a full block.
///
/// It waits in `poll` on the input, the signal pipe, a stop pipe and the output (for a
/// reader that hung up). Termination signals are blocked on this thread, so they reach the
/// serving thread as they did before there was a second one.
final class BurstIO: @unchecked Sendable {
    let blocks: Handoff<DecodedBlock>
    private let input: InputLines
    private let output: Int32
    private let limits: SessionLimits
    /// A byte written to `stopWrite` tells the thread to stop.
    private let stopRead: Int32
    private let stopWrite: Int32
    private var thread: pthread_t? = nil
    /// Blocks the serving thread has taken the lines out of, to hold later blocks' lines.
    private let spent = Mutex<[[DecodedLine]]>([])
    /// The last outputs written, emptied (`takeSpare`), at most `queueCapacity`: as many
    /// as the serving thread can hand over between two of this thread's wakeups.
    private let spares = Mutex<[HeldStretch]>([])
    private let keptSpares: Int
    /// Output to write, in order; `.done` follows the last.
    private let jobs = Handoff<OutputJob>(capacity: Int.max)
    private enum OutputJob: Sendable {
        /// The output and its `PendingOutput` bytes.
        case held(HeldStretch, bytes: Int)
        case done
    }
    private var out: OutputChannel
    private let closedOutput = Atomic<Bool>(false)
    /// `OutputChannel.failure` of this thread's writes, 0 for none.
    private let failedWrite = Atomic<Int32>(0)
    private let flushThreshold: Int
    private let pending: PendingOutput

    /// Starts reading `input`, which belongs to this thread until `finish`. `output` is
    /// only watched for a hang-up. Nil if no thread could be started.
    init?(input: InputLines, output: Int32, limits: SessionLimits, flushThreshold: Int, queueCapacity: Int = 8) {
        self.input = input
        pending = PendingOutput(limit: limits.maxPendingOutput)
        self.output = output
        out = OutputChannel(fd: output)
        self.flushThreshold = flushThreshold
        self.limits = limits
        blocks = Handoff(capacity: queueCapacity, lowWater: queueCapacity / 2 - 1)
        keptSpares = queueCapacity
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        (stopRead, stopWrite) = (ends[0], ends[1])
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGINT)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var id = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        guard pthread_create(&id, nil, { context in
            Unmanaged<BurstIO>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context) == 0 else {
            Unmanaged<BurstIO>.fromOpaque(context).release()
            close(stopRead)
            close(stopWrite)
            return nil
        }
        thread = id
    }

    /// Writing failed or the output's reader hung up: nothing more can be said.
    var outputClosed: Bool { closedOutput.load(ordering: .acquiring) }
    /// Why writing failed, when it was not the reader going away.
    var outputFailure: Int32? {
        let e = failedWrite.load(ordering: .acquiring)
        return e == 0 ? nil : e
    }

    /// Hands over output to be written after any handed over before; `bytes` is about what
    /// it holds (`EventRecord.heldBytes` for its records).
    func handOver(_ held: consuming HeldStretch, bytes: Int) {
        pending.add(bytes)
        _ = jobs.put(.held(consume held, bytes: bytes))
        // This thread may be waiting for room in the queue of blocks. It writes what waits
        // when it is woken for room, so it is woken for output only when the serving thread
        // is about to wait for that output to be written: each wakeup costs the serving
        // thread a system call, and on a loaded host the woken thread can take its core.
        if pending.isOver { blocks.wakeProducer() }
    }

    /// Returns once no more than `--max-pending-output` bytes handed over wait to be
    /// written, or the output is gone. Stopping (SIGTERM) does not end the wait: this
    /// thread's writes give up within `OutputChannel.stopWaitMilliseconds` then, unless the
    /// reader takes them, and what is answered meanwhile stays bounded.
    func waitForRoom() {
        pending.waitForRoom { outputClosed }
    }

    /// An output written and emptied here, for the serving thread to hold the next in.
    func takeSpare() -> HeldStretch? {
        spares.withLock { $0.popLast() }
    }

    /// Waits for the thread to end, telling it to stop first if it has not handed over its
    /// last block (it may be waiting for input or for room in the queue); it writes all
    /// the output handed to it first. The input is the caller's again afterwards.
    func finish() {
        guard let running = thread else { return }
        _ = jobs.put(.done)
        var byte: UInt8 = 1
        _ = write(stopWrite, &byte, 1)
        blocks.close()
        pthread_join(running, nil)
        thread = nil
        close(stopRead)
        close(stopWrite)
    }

    /// Takes a block's list once its lines are taken (leaving `lines` empty), to hold a
    /// later block's lines. Moved, not copied: a list still shared when this thread empties
    /// it would be reallocated, not reused.
    func recycle(_ lines: inout [DecodedLine]) {
        spent.withLock { spent in
            spent.append([])
            swap(&spent[spent.count - 1], &lines)
        }
    }

    /// Writes the output handed over so far, without waiting for more. False once the
    /// last has been written (`finish` was called).
    private func writeHandedOver() -> Bool {
        var more = true
        while more, let job = jobs.poll() { more = perform(job) }
        flushOutput()
        return more
    }

    /// Writes what `out` holds and tells the serving thread if the output is gone, so it
    /// stops applying lines whose answers could not be written.
    private func flushOutput() {
        out.flush()
        if out.isClosed {
            failedWrite.store(out.failure ?? 0, ordering: .releasing)
            closedOutput.store(true, ordering: .releasing)
        }
    }

    /// Takes the job: a held output's record list must be its only owner, or moving the
    /// records out to write them would copy the whole list first. False for `.done`.
    private func perform(_ job: consuming OutputJob) -> Bool {
        switch consume job {
        case .held(var held, let bytes):
            defer { pending.remove(bytes) }
            guard !out.isClosed else { return true }
            held.write(to: &out, flushingAt: flushThreshold)
            flushOutput()
            held.removeAll()
            // Moved into the list, so the serving thread gets the only reference.
            var emptied: HeldStretch? = consume held
            spares.withLock { spares in
                if spares.count < keptSpares, let emptied = emptied.take() { spares.append(emptied) }
            }
            return true
        case .done:
            return false
        }
    }

    private func run() {
        // Once the input is done with, the output the serving thread still hands over is
        // not, unless the last of it has been written already.
        if read() {
            while let job = jobs.take(), perform(job) {}
        }
        flushOutput()
    }

    /// Reads and decodes the burst; false when `finish` was called meanwhile and every
    /// output handed over is written.
    private func read() -> Bool {
        // Lines in the last block: the next one is sized for as many up front, instead of
        // growing through a dozen copies.
        var lastCount = 0
        // Handled blocks' lists, emptied, hold the next blocks' lines: the same memory
        // block after block, where a fresh list would fault its pages in each time. As
        // many are kept as blocks can be queued, all read between two wakeups.
        var reusable: [[DecodedLine]] = []
        while true {
            guard writeHandedOver() else { return false }
            // No input is read while too much output waits.
            while pending.isOver {
                guard let job = jobs.take(), perform(job) else { return false }
            }
            var freed: [[DecodedLine]] = []
            spent.withLock { swap(&$0, &freed) }
            while var list = freed.popLast() {
                list.freeSpent()
                if reusable.count <= keptSpares { reusable.append(list) }
            }
            switch InputWait.wait(input: input.reader.fd, output: output, stop: stopRead) {
            case .stop:
                return true
            case .terminationSignal:
                _ = blocks.put(DecodedBlock(lines: [], after: .ended(.terminationSignal)))
                return true
            case .outputGone:
                _ = blocks.put(DecodedBlock(lines: [], after: .ended(.outputGone)))
                return true
            case .ready:
                break
            }
            var lines = reusable.popLast() ?? []
            lines.reserveCapacity(lastCount)
            let result = input.reader.fill()
            switch result {
            case .data, .endOfInput:
                input.reader.drain(final: result == .endOfInput) { item in
                    lines.append(item.decoded(limits: limits))
                    return true
                }
            case .interrupted:
                continue
            case .failed:
                break
            }
            // A short read already says the input is drained; only after a full one is it
            // worth a poll to see whether more of a burst is waiting.
            let after: DecodedBlock.After
            switch result {
            case .endOfInput: after = .ended(.endOfInput)
            case .data: after = input.reader.drainedInput || !InputWait.isReady(input.reader.fd) ? .burstOver : .more
            default: after = .ended(.inputFailed)
            }
            if case .more = after, lines.isEmpty { continue }
            lastCount = lines.count
            // Moved into the queue: the serving thread takes the lines out of the only
            // reference to the list, or it would copy it whole first.
            var block: DecodedBlock? = DecodedBlock(lines: consume lines, after: after)
            // While the queue is full, output handed over meanwhile is written, or the
            // serving thread could wait for it while this one waits for room.
            while true {
                switch blocks.offer(&block, unless: { !jobs.isEmpty }) {
                case .put: break
                case .closed: return true
                case .interrupted:
                    guard writeHandedOver() else { return false }
                    continue
                }
                break
            }
            guard case .more = after else { return true }
        }
    }
}
