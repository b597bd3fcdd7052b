#if canImport(Glibc)
import Glibc
#endif
import FormdClient

/// The controlling terminal (`/dev/tty`) in raw mode, on the alternate screen.
///
/// Drawing and keys go through `/dev/tty`, so stdin and stdout stay free for the calling
/// script (like fzf and dialog). The terminal is always given back as it was: on a normal
/// `restore()`, on SIGTERM/SIGINT/SIGHUP/SIGQUIT (restore, then exit 128+signal), and on a
/// crash — a Swift runtime trap is SIGILL or SIGTRAP, a bad access SIGSEGV or SIGBUS —
/// where the handler restores and re-raises the signal with its default action. The
/// handlers only use async-signal-safe calls (`tcsetattr`, `write`, `_exit`, `raise`).
/// SIGTSTP (`kill -TSTP`, or Ctrl-Z: a key in raw mode, which `suspend()` turns into the
/// signal) gives the terminal back before stopping and takes it again on SIGCONT. SIGWINCH and a continue after a stop
/// are turned into a byte on a self-pipe that the input loop polls, to redraw.
enum RawTerminal {
    nonisolated(unsafe) private static var fd: Int32 = -1
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var rawMode = termios()
    nonisolated(unsafe) private static var active: sig_atomic_t = 0
    nonisolated(unsafe) private static var wakePipe: (read: Int32, write: Int32) = (-1, -1)
    /// The crash signals' handlers before ours, by signal number.
    nonisolated(unsafe) private static var previous: [sigaction] = Array(repeating: sigaction(), count: 32)

    /// Enter: alternate screen, bracketed paste on, cursor keys in normal mode.
    private static let enterSequence: [UInt8] = Array("\u{1b}[?1049h\u{1b}[?2004h\u{1b}[?1l\u{1b}[H\u{1b}[2J".utf8)
    /// Leave: paste mode off, attributes reset, cursor shown, main screen back.
    private static let leaveSequence: [UInt8] = Array("\u{1b}[?2004l\u{1b}[0m\u{1b}[?25h\u{1b}[?1049l".utf8)

    enum OpenError: Error { case noTerminal(String) }

    /// Opens `/dev/tty`, switches it to raw mode and the alternate screen, installs the
    /// handlers. Returns the descriptor to read keys from and draw on.
    static func open() throws(OpenError) -> Int32 {
        let t = Glibc.open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard t >= 0 else { throw .noTerminal(String(cString: strerror(errno))) }
        var original = termios()
        guard tcgetattr(t, &original) == 0 else {
            let reason = String(cString: strerror(errno))
            close(t)
            throw .noTerminal(reason)
        }
        var pipeFDs: [Int32] = [-1, -1]
        if pipe(&pipeFDs) == 0 {
            for p in pipeFDs { _ = fcntl(p, F_SETFL, fcntl(p, F_GETFL) | O_NONBLOCK); _ = fcntl(p, F_SETFD, FD_CLOEXEC) }
            wakePipe = (pipeFDs[0], pipeFDs[1])
        }
        fd = t
        saved = original
        installHandlers()

        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        rawMode = raw
        active = 1
        tcsetattr(t, TCSAFLUSH, &raw)
        write(enterSequence)
        return t
    }

    /// The descriptor that becomes readable when the screen must be redrawn in full
    /// (the window was resized, or the process continued after a stop).
    static var redrawFD: Int32 { wakePipe.read }

    /// Drains the redraw pipe; true if a redraw was asked for since the last call.
    static func takeRedraw() -> Bool {
        guard wakePipe.read >= 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 64)
        var any = false
        while read(wakePipe.read, &buffer, buffer.count) > 0 { any = true }
        return any
    }

    /// Rows and columns of the terminal (24×80 when it cannot tell).
    static func size() -> (rows: Int, columns: Int) {
        var ws = winsize()
        if fd >= 0, ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_row > 0, ws.ws_col > 0 {
            return (Int(ws.ws_row), Int(ws.ws_col))
        }
        return (24, 80)
    }

    /// Writes all of `bytes` to the terminal.
    static func write(_ bytes: [UInt8]) {
        if fd >= 0 { Console.write(fd, bytes) }
    }

    /// Leaves the alternate screen and puts the terminal modes back. Idempotent.
    static func restore() {
        guard active != 0 else { return }
        active = 0
        write(leaveSequence)
        tcsetattr(fd, TCSAFLUSH, &saved)
        close(fd)
        fd = -1
    }

    /// Async-signal-safe restore for the handlers (no allocation, no locks).
    private static func restoreFromSignal() {
        guard active != 0 else { return }
        active = 0
        leaveSequence.withUnsafeBytes { b in _ = Glibc.write(fd, b.baseAddress, b.count) }
        tcsetattr(fd, TCSANOW, &saved)
    }

    private static func installHandlers() {
        var action = sigaction()
        sigemptyset(&action.sa_mask)

        // Termination: restore and exit with the shell's 128+signal status. Nothing has
        // been written to stdout, so the caller sees a cancel.
        action.__sigaction_handler.sa_handler = { sig in
            RawTerminal.restoreFromSignal()
            _exit(128 + sig)
        }
        action.sa_flags = 0
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGQUIT] { sigaction(sig, &action, nil) }

        // Crashes (the engine runs in this process): restore, then hand the signal to
        // whoever handled it before (the Swift runtime's backtracer, or the default
        // action) by reinstalling that handler and raising the signal again.
        action.__sigaction_handler.sa_handler = { sig in
            RawTerminal.restoreFromSignal()
            if sig >= 0 && sig < RawTerminal.previous.count {
                _ = withUnsafePointer(to: &RawTerminal.previous[Int(sig)]) { sigaction(sig, $0, nil) }
                raise(sig)
            }
            // The previous handler returned (a signal sent with kill, not a real fault, is
            // not raised again by returning): die of it now.
            signal(sig, SIG_DFL)
            raise(sig)
        }
        action.sa_flags = Int32(SA_NODEFER)
        for sig in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT] {
            sigaction(sig, &action, &previous[Int(sig)])
        }

        // Resizes wake the input loop through the pipe.
        action.__sigaction_handler.sa_handler = { _ in RawTerminal.wake() }
        action.sa_flags = Int32(SA_RESTART)
        sigaction(SIGWINCH, &action, nil)
        installSuspendHandler()
        signal(SIGPIPE, SIG_IGN)
    }

    /// Ctrl-Z: stops the process group, as the terminal would with its own Ctrl-Z (the
    /// SIGTSTP handler gives the terminal back first). In a group without job control (an
    /// orphaned one) the kernel discards the signal and nothing happens.
    static func suspend() {
        kill(0, SIGTSTP)
    }

    private static func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakePipe.write, &byte, 1)
    }

    /// SIGTSTP: give the terminal back, stop (the default action, raised again while the
    /// handler runs), and on continuing take the terminal again and ask for a redraw.
    private static func installSuspendHandler() {
        var action = sigaction()
        sigemptyset(&action.sa_mask)
        action.__sigaction_handler.sa_handler = { _ in
            let wasActive = RawTerminal.active != 0
            RawTerminal.restoreFromSignal()
            signal(SIGTSTP, SIG_DFL)
            raise(SIGTSTP)
            // Continued.
            RawTerminal.installSuspendHandler()
            if wasActive {
                tcsetattr(RawTerminal.fd, TCSANOW, &RawTerminal.rawMode)
                RawTerminal.enterSequence.withUnsafeBytes { b in _ = Glibc.write(RawTerminal.fd, b.baseAddress, b.count) }
                RawTerminal.active = 1
                RawTerminal.wake()
            }
        }
        action.sa_flags = Int32(SA_RESTART | SA_NODEFER)
        sigaction(SIGTSTP, &action, nil)
    }
}
