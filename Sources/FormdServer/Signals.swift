#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Termination requests from SIGTERM and SIGINT, turned into a flag the read loop checks.
///
/// The handler stores to an atomic and writes one byte to a non-blocking pipe (both
/// async-signal-safe; a plain Swift variable would be an access the handler can land in
/// the middle of, which exclusivity checking traps). The server polls that pipe beside its input, so a signal
/// that arrives just before it starts waiting still wakes it: no window in which a
/// signal is noticed only at the next input. The handler is installed without SA_RESTART,
/// so a blocked `write` returns EINTR as well. SIGPIPE is ignored so a closed stdout
/// shows up as EPIPE from `write`, not as death by signal. The stdio loop and the
/// `--listen` loop both poll `wakeFD`.
public enum Signals {
    private static let terminationSignal = Atomic<Int32>(0)
    /// The self-pipe: [read end, write end]; -1 until `install`.
    nonisolated(unsafe) private static var wakePipe: (Int32, Int32) = (-1, -1)

    public static var terminationRequested: Bool { terminationSignal.load(ordering: .relaxed) != 0 }

    /// The thread inside `OutputChannel.flush`, 0 when none: a termination signal is passed
    /// on to it as SIGURG, so a write blocked on a reader that does not read returns
    /// (EINTR) on whichever thread it is, and formd can stop.
    private static let writingThread = Atomic<pthread_t>(0)

    /// Brackets a stretch of blocking writes on the calling thread.
    static func writing(_ on: Bool) { writingThread.store(on ? pthread_self() : 0, ordering: .relaxed) }

    /// Readable once a termination signal has arrived (-1 before `install`).
    public static var wakeFD: Int32 { wakePipe.0 }

    public static func install() {
        signal(SIGPIPE, SIG_IGN)
        // The atomics are made on first use: here, never first in the handler.
        _ = terminationRequested
        writing(false)
        if wakePipe.0 < 0 {
            var fds: [Int32] = [-1, -1]
            if pipe(&fds) == 0 {
                for fd in fds {
                    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                }
                wakePipe = (fds[0], fds[1])
            }
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { sig in
            Signals.terminationSignal.store(sig, ordering: .relaxed)
            let saved = errno
            var byte: UInt8 = 1
            _ = write(Signals.wakePipe.1, &byte, 1)
            let writer = Signals.writingThread.load(ordering: .relaxed)
            if writer != 0 && pthread_equal(writer, pthread_self()) == 0 { _ = pthread_kill(writer, SIGURG) }
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGTERM, &action, nil)
        sigaction(SIGINT, &action, nil)
        // SIGURG only interrupts a blocked write (no SA_RESTART); the writer then sees the
        // termination request.
        var interrupt = sigaction()
        interrupt.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&interrupt.sa_mask)
        interrupt.sa_flags = 0
        sigaction(SIGURG, &interrupt, nil)
    }
}
