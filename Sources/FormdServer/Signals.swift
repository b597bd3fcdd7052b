#if canImport(Glibc)
import Glibc
#endif

/// Termination requests from SIGTERM and SIGINT, turned into a flag the read loop checks.
///
/// The handler only stores to a `sig_atomic_t`; it is installed without SA_RESTART so a
/// blocked `read` returns EINTR and the loop sees the flag at once. SIGPIPE is ignored so
/// a closed stdout shows up as EPIPE from `write`, not as death by signal.
public enum Signals {
    nonisolated(unsafe) private static var terminationSignal: sig_atomic_t = 0

    public static var terminationRequested: Bool { terminationSignal != 0 }

    public static func install() {
        signal(SIGPIPE, SIG_IGN)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { sig in Signals.terminationSignal = sig }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGTERM, &action, nil)
        sigaction(SIGINT, &action, nil)
    }
}
