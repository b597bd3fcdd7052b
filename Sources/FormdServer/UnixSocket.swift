#if canImport(Glibc)
import Glibc
#endif

/// Why `--listen` or `attach` cannot go on; the message says what to do.
public struct SocketError: Error, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// The Unix domain socket calls `--listen` and `attach` make, with their checks.
public enum UnixSocket {
    /// `struct ucred` of <sys/socket.h> (not exported to Swift without _GNU_SOURCE).
    private struct PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// The listening socket a daemon made, and how to recognise its file later.
    public struct Listener: Sendable {
        public var fd: Int32
        public var path: String
        var device: UInt
        var inode: UInt

        /// Closes the socket and removes its file, unless another process has put another
        /// file at the path since.
        public func close() {
            _ = Glibc.close(fd)
            var st = stat()
            if lstat(path, &st) == 0 && UInt(st.st_dev) == device && UInt(st.st_ino) == inode {
                unlink(path)
            }
        }
    }

    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The directory part of a path ("." for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }

    /// Creates the socket at `path`, mode 0600, listening.
    ///
    /// Refuses when the directory may be written by anyone but its owner (someone else
    /// could replace the socket), or is owned by another user (but root); when `path` is
    /// something other than a socket; and when a daemon already answers on it (a live
    /// socket is never stolen). A socket nobody answers on is left from a daemon that
    /// died: it is replaced.
    public static func listen(at path: String) throws(SocketError) -> Listener {
        guard !path.isEmpty else { throw SocketError("the socket path is empty") }
        guard path.utf8.count < MemoryLayout<sockaddr_un>.size - MemoryLayout<sa_family_t>.size else {
            throw SocketError("the socket path \(path) is too long (at most \(MemoryLayout<sockaddr_un>.size - MemoryLayout<sa_family_t>.size - 1) bytes)")
        }
        let dir = directory(of: path)
        var st = stat()
        guard stat(dir, &st) == 0 else {
            throw SocketError("cannot use directory \(dir) for the socket: \(describe(errno))")
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw SocketError("\(dir) is not a directory") }
        let mode = st.st_mode & 0o7777
        if mode & 0o022 != 0 {
            throw SocketError("refusing to listen in \(dir): it is writable by \(mode & 0o020 != 0 ? "its group" : "others")\(mode & 0o022 == 0o022 ? " and others" : "") (mode \(octal(mode))), so another user could replace the socket; use a directory only you can write to, such as $XDG_RUNTIME_DIR or a directory made with mode 0700")
        }
        let me = geteuid()
        if st.st_uid != me && st.st_uid != 0 {
            throw SocketError("refusing to listen in \(dir): it belongs to uid \(st.st_uid), not to you (uid \(me))")
        }
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFSOCK else {
                throw SocketError("\(path) exists and is not a socket; refusing to replace it")
            }
            switch probe(path) {
            case .live:
                throw SocketError("another formd is listening on \(path); stop it first (send it shutdown or SIGTERM), or choose another path")
            case .stale:
                guard unlink(path) == 0 || errno == ENOENT else {
                    throw SocketError("cannot remove the stale socket \(path): \(describe(errno))")
                }
            case .failed(let code):
                throw SocketError("cannot tell whether a formd is listening on \(path): \(describe(code))")
            }
        } else if errno != ENOENT {
            throw SocketError("cannot use \(path): \(describe(errno))")
        }
        // Bound under a private name in the same directory and linked into place once
        // listening, so a client that sees the file can connect; `link` never replaces a
        // file another daemon put there meanwhile.
        let staging = stagingPath(in: dir)
        let bindPath = staging ?? path
        if let staging { unlink(staging) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError("cannot create a socket: \(describe(errno))") }
        // The file is created with no permission for group and others, never loosened.
        let oldMask = umask(0o177)
        let bound = withAddress(bindPath) { bind(fd, $0, $1) }
        let bindErrno = errno
        umask(oldMask)
        guard bound == 0 else {
            Glibc.close(fd)
            throw placingFailure(bindErrno, taken: EADDRINUSE, doing: "bind", path)
        }
        guard chmod(bindPath, 0o600) == 0, lstat(bindPath, &st) == 0 else {
            let code = errno
            Glibc.close(fd)
            unlink(bindPath)
            throw SocketError("cannot set the mode of \(path): \(describe(code))")
        }
        guard Glibc.listen(fd, 128) == 0 else {
            let code = errno
            Glibc.close(fd)
            unlink(bindPath)
            throw SocketError("cannot listen on \(path): \(describe(code))")
        }
        if let staging {
            let linked = link(staging, path)
            let code = errno
            unlink(staging)
            guard linked == 0 else {
                Glibc.close(fd)
                throw placingFailure(code, taken: EEXIST, doing: "put the socket at", path)
            }
        }
        setNonBlocking(fd)
        return Listener(fd: fd, path: path, device: UInt(st.st_dev), inode: UInt(st.st_ino))
    }

    /// Why the socket could not be put at `path`: another daemon's socket got there first
    /// (`code` is `taken`), or `doing` failed.
    private static func placingFailure(_ code: Int32, taken: Int32, doing: String, _ path: String) -> SocketError {
        code == taken ? SocketError("another formd is listening on \(path) (it appeared while this one started)")
            : SocketError("cannot \(doing) \(path): \(describe(code))")
    }

    /// The name a socket is bound under before it is linked to its path: hidden, in the
    /// same (private) directory, one per process; nil when it would not fit in an address
    /// (the socket is then bound at its path directly).
    static func stagingPath(in dir: String) -> String? {
        let staging = dir + "/.formd-listen-" + String(getpid())
        return staging.utf8.count < MemoryLayout<sockaddr_un>.size - MemoryLayout<sa_family_t>.size ? staging : nil
    }

    enum Probe { case live, stale, failed(Int32) }

    /// Whether a daemon answers on the socket at `path`.
    static func probe(_ path: String) -> Probe {
        switch connect(to: path) {
        case .success(let fd):
            Glibc.close(fd)
            return .live
        case .failure(let e):
            return e.code == ECONNREFUSED ? .stale : .failed(e.code)
        }
    }

    /// A connected (blocking) socket, or the errno of the failure.
    public static func connect(to path: String) -> Result<Int32, Errno> {
        guard path.utf8.count < MemoryLayout<sockaddr_un>.size - MemoryLayout<sa_family_t>.size else {
            return .failure(Errno(ENAMETOOLONG))
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(Errno(errno)) }
        while true {
            if withAddress(path, { Glibc.connect(fd, $0, $1) }) == 0 { return .success(fd) }
            if errno == EINTR { continue }
            let code = errno
            Glibc.close(fd)
            return .failure(Errno(code))
        }
    }

    /// The user id of the process at the other end of a connected socket.
    public static func peerUID(_ fd: Int32) -> uid_t? {
        var cred = PeerCredentials()
        var len = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 else { return nil }
        return cred.uid
    }

    public static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    private static func octal(_ mode: mode_t) -> String {
        let s = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}

/// A failed system call's errno.
public struct Errno: Error, Sendable, Equatable {
    public var code: Int32
    public init(_ code: Int32) { self.code = code }
    public var description: String { String(cString: strerror(code)) }
}
