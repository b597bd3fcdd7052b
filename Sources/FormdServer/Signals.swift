#if canImport(Glibc)
import Glibc
#endif

/// Termination requests from SIGTERM and SIGINT, turned into a flag the read loop checks.
///
/// The handler only stores to a `sig_atomic_t` (and, for a poll loop, writes a byte to a
/// pipe); it is installed without SA_RESTART so a blocked `read` returns EINTR and the loop
/// sees the flag at once. SIGPIPE is ignored so a closed stdout shows up as EPIPE from
/// `write`, not as death by signal.
public enum Signals {
    nonisolated(unsafe) private static var terminationSignal: sig_atomic_t = 0
    /// The write end of the wake-up pipe, or -1.
    nonisolated(unsafe) private static var wakeWriteFD: Int32 = -1

    public static var terminationRequested: Bool { terminationSignal != 0 }

    public static func install() {
        signal(SIGPIPE, SIG_IGN)
        _ = wakeWriteFD
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { sig in
            Signals.terminationSignal = sig
            if Signals.wakeWriteFD >= 0 {
                let saved = errno
                var byte: UInt8 = 0
                _ = write(Signals.wakeWriteFD, &byte, 1)
                errno = saved
            }
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGTERM, &action, nil)
        sigaction(SIGINT, &action, nil)
    }

    /// A descriptor that becomes readable when a termination signal arrives, so a `poll`
    /// loop wakes up even when the signal lands just before it blocks (the self-pipe
    /// trick). Made once, before `install`; both ends are non-blocking. -1 if no pipe.
    public static func wakeUpDescriptor() -> Int32 {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return -1 }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeWriteFD = fds[1]
        return fds[0]
    }
}
