import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A real `formd` started with `posix_spawn` and held by raw pipe ends, for the tests that
/// need what `FormdProcess.run` hides: input kept open while output is read, signals,
/// closing one end, `/proc/PID` (peak memory, CPU time) and `wait4`'s exit status.
///
/// Every pipe end is close-on-exec, so the child holds only its own stdin/stdout/stderr
/// and no other test's formd inherits these. The test process ignores SIGPIPE: writing
/// to a formd that has exited is an EPIPE here, not the end of the test run.
final class SpawnedFormd {
    let pid: pid_t
    private(set) var stdinFD: Int32
    private(set) var stdoutFD: Int32
    private(set) var stderrFD: Int32
    /// `wait4`'s status once the process has been reaped.
    private(set) var exitStatus: Int32? = nil
    private var pending: [UInt8] = []

    /// Starts formd with `args`, with `environment` added to the test's own.
    init(_ args: [String], environment: [String: String] = [:]) throws {
        Glibc.signal(SIGPIPE, SIG_IGN)
        var pipes: [[Int32]] = []
        for _ in 0..<3 {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            pipes.append(fds)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipes[0][0], 0)
        posix_spawn_file_actions_adddup2(&actions, pipes[1][1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipes[2][1], 2)
        let path = FormdProcess.binary.path
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, nil, argv, envp)
        close(pipes[0][0]); close(pipes[1][1]); close(pipes[2][1])
        guard rc == 0 else {
            [pipes[0][1], pipes[1][0], pipes[2][0]].forEach { close($0) }
            throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO)
        }
        pid = child
        stdinFD = pipes[0][1]
        stdoutFD = pipes[1][0]
        stderrFD = pipes[2][0]
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = waitForExit(timeout: 5)
        }
        [stdinFD, stdoutFD, stderrFD].filter { $0 >= 0 }.forEach { close($0) }
    }

    /// Writes all of `bytes`; false once formd no longer reads (EPIPE).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = write(stdinFD, raw.baseAddress! + off, raw.count - off)
                if n > 0 { off += n; continue }
                if n < 0 && errno == EINTR { continue }
                return false
            }
            return true
        }
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Writes `bytes` from another thread until done or formd stops reading (EPIPE), so
    /// the caller can read the output meanwhile. With `thenClose`, stdin is closed after
    /// the last byte (end of input) and belongs to that thread from now on. Wait for the
    /// group before closing stdin yourself.
    func sendInBackground(_ bytes: [UInt8], thenClose: Bool = false) -> DispatchGroup {
        let fd = stdinFD
        if thenClose { stdinFD = -1 }
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            bytes.withUnsafeBytes { raw in
                var off = 0
                while off < raw.count {
                    let n = write(fd, raw.baseAddress! + off, min(raw.count - off, 1 << 14))
                    if n > 0 { off += n } else if n < 0 && errno == EINTR { continue } else { break }
                }
            }
            if thenClose { close(fd) }
        }
        return group
    }

    func closeStdin() { if stdinFD >= 0 { close(stdinFD); stdinFD = -1 } }
    func closeStdout() { if stdoutFD >= 0 { close(stdoutFD); stdoutFD = -1 } }

    /// The next stdout line (without `\n`), or nil at end of output or after `timeout`.
    func readLine(timeout: TimeInterval = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let nl = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<nl], as: UTF8.self)
                pending.removeSubrange(...nl)
                return line
            }
            guard readMore(deadline: deadline) else { return nil }
        }
    }

    /// Everything left on stdout until formd closes it (or `timeout`); a last line without
    /// its `\n` is kept, so a torn line is visible to the caller.
    func readToEnd(timeout: TimeInterval = 20) -> [UInt8] {
        let deadline = Date().addingTimeInterval(timeout)
        while readMore(deadline: deadline) {}
        defer { pending.removeAll() }
        return pending
    }

    private func readMore(deadline: Date) -> Bool {
        let left = deadline.timeIntervalSinceNow
        guard left > 0, stdoutFD >= 0 else { return false }
        var p = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(left * 1000)) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let n = read(stdoutFD, &chunk, chunk.count)
        guard n > 0 else { return false }
        pending.append(contentsOf: chunk[..<n])
        return true
    }

    func stderrText() -> String {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var p = pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)
        while poll(&p, 1, 0) > 0 {
            let n = read(stderrFD, &chunk, chunk.count)
            if n <= 0 { break }
            out.append(contentsOf: chunk[..<n])
        }
        return String(decoding: out, as: UTF8.self)
    }

    func signal(_ sig: Int32) { kill(pid, sig) }

    /// CPU time (user + system, seconds) formd used in all, known once it is reaped.
    private(set) var cpuSeconds: Double? = nil

    /// Reaps formd; nil if it is still running after `timeout`. Returns the raw status.
    @discardableResult
    func waitForExit(timeout: TimeInterval = 10) -> Int32? {
        if let exitStatus { return exitStatus }
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            var status: Int32 = 0
            var usage = rusage()
            if wait4(pid, &status, WNOHANG, &usage) == pid {
                exitStatus = status
                cpuSeconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                    + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
                return status
            }
            usleep(5_000)
        } while Date() < deadline
        return nil
    }

    /// True while formd runs (not yet exited, or exited and not yet reaped: a zombie).
    var isRunning: Bool {
        guard exitStatus == nil, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return procState(stat) != "Z"
    }

    /// `VmHWM` (peak resident memory) in KiB.
    var peakRSSKiB: Int? { procStatus("VmHWM") }

    /// Pids of formd's own children (it should never have any): every process whose
    /// parent it is, from `/proc/*/stat`.
    var children: [Int] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return all.compactMap(Int.init).filter { p in
            guard let stat = try? String(contentsOfFile: "/proc/\(p)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int(fields[1]) == Int(pid)
        }
    }

    private func procStatus(_ key: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }
        return nil
    }

    private func procState(_ stat: String) -> Character? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].first(where: { $0 != " " })
    }
}

/// `WIFEXITED`/`WEXITSTATUS`/`WIFSIGNALED` for a raw wait status (macros Swift cannot import).
enum WaitStatus {
    static func exited(_ s: Int32) -> Bool { s & 0x7F == 0 }
    static func exitCode(_ s: Int32) -> Int32 { (s >> 8) & 0xFF }
    static func signalled(_ s: Int32) -> Bool { (s & 0x7F) != 0 && (s & 0x7F) != 0x7F }
    static func describe(_ s: Int32) -> String {
        exited(s) ? "exit \(exitCode(s))" : signalled(s) ? "signal \(s & 0x7F)" : "status \(s)"
    }
}
