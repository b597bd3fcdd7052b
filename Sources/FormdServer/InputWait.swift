#if canImport(Glibc)
import Glibc
#endif

/// Waiting for input the way the stdio server does, on whichever thread reads: in `poll`
/// on the input, the signal pipe, an optional stop pipe and the output (events 0: only
/// its error or hang-up, a reader that went away), so the wait sleeps while idle and ends
/// at once for any of them.
enum InputWait {
    enum Outcome { case ready, stop, terminationSignal, outputGone }

    /// Sleeps until the input has something to read (data, end of input or an error, which
    /// `read` then reports), or another reason to stop comes first. `stop` of -1: none.
    static func wait(input: Int32, output: Int32, stop: Int32 = -1) -> Outcome {
        let gone = Int16(POLLERR | POLLHUP | POLLNVAL)
        return withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 4) { fds in
            while true {
                if Signals.terminationRequested { return .terminationSignal }
                fds[0] = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                fds[1] = pollfd(fd: output, events: 0, revents: 0)
                fds[2] = pollfd(fd: Signals.wakeFD, events: Int16(POLLIN), revents: 0)
                fds[3] = pollfd(fd: stop, events: Int16(POLLIN), revents: 0)
                if poll(fds.baseAddress, 4, -1) < 0 {
                    if errno == EINTR { continue }
                    return .ready
                }
                if fds[3].revents != 0 { return .stop }
                if fds[1].revents & gone != 0 { return .outputGone }
                if fds[2].revents != 0 { return .terminationSignal }
                if fds[0].revents != 0 { return .ready }
            }
        }
    }

    /// True when a read of `fd` would not block: more of a burst is already waiting.
    static func isReady(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }
}
