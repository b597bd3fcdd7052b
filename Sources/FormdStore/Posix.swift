#if canImport(Glibc)
import Glibc
#endif

/// The few system calls the store makes, with EINTR retried and errors as messages.
enum Posix {
    struct Failure: Error {
        var message: String
        init(_ what: String, _ code: Int32 = errno) { message = "\(what): \(String(cString: strerror(code)))" }
        init(message: String) { self.message = message }
    }

    /// Files are created 0600 and chmod'ed to it: only the owner may read the state.
    static let fileMode: mode_t = 0o600
    static let directoryMode: mode_t = 0o700

    /// Opens `path`, first creating it and any missing parents (mode 0700) if asked. Each
    /// directory created is made durable by an fsync of its parent.
    static func openDirectory(_ path: String, create: Bool) throws(Failure) -> Int32 {
        if create {
            var prefix = path.hasPrefix("/") ? "/" : ""
            for part in path.split(separator: "/") {
                let parent = prefix.isEmpty ? "." : prefix
                prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
                if mkdir(prefix, directoryMode) == 0 {
                    let fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                    if fd >= 0 { _ = fsync(fd); close(fd) }
                } else if errno != EEXIST {
                    throw Failure("cannot create directory \(prefix)")
                }
            }
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { throw Failure("cannot open directory \(path)") }
        do {
            try checkPrivateDirectory(fd, path)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Refuses a directory another user could write in (they could plant or replace the
    /// state files) or that belongs to another user; checked on the open descriptor, so
    /// what is checked is what is used.
    private static func checkPrivateDirectory(_ fd: Int32, _ path: String) throws(Failure) {
        var st = stat()
        if fstat(fd, &st) != 0 { throw Failure("cannot stat directory \(path)") }
        let mode = st.st_mode & 0o7777
        if mode & 0o022 != 0 {
            let who = mode & 0o022 == 0o022 ? "its group and others" : mode & 0o020 != 0 ? "its group" : "others"
            throw Failure(message: "refusing to keep state in \(path): it is writable by \(who) (mode \(String(mode, radix: 8))), so another user could plant or replace its files; use a directory only you can write to (mode 0700)")
        }
        let me = geteuid()
        if st.st_uid != me {
            throw Failure(message: "refusing to keep state in \(path): it belongs to uid \(st.st_uid), not to you (uid \(me))")
        }
    }

    /// Opens `name` in `dir` without following a symbolic link (nor blocking on a FIFO),
    /// and checks that it is a regular file owned by this user: a planted link or a file
    /// someone else made is refused, never read or written through.
    private static func openOwned(_ dir: Int32, _ name: String, _ flags: Int32, failing message: String) throws(Failure) -> Int32? {
        let fd = openat(dir, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, fileMode)
        if fd < 0 {
            if errno == ENOENT && flags & O_CREAT == 0 { return nil }
            if errno == ELOOP { throw Failure(message: "\(message): it is a symbolic link, which formd never follows in its state directory") }
            throw Failure(message)
        }
        var st = stat()
        let problem: String?
        if fstat(fd, &st) != 0 {
            problem = "cannot stat it: \(String(cString: strerror(errno)))"
        } else if st.st_mode & S_IFMT != S_IFREG {
            problem = "it is not a regular file"
        } else if st.st_uid != geteuid() {
            problem = "it belongs to uid \(st.st_uid), not to you (uid \(geteuid()))"
        } else {
            problem = nil
        }
        if let problem {
            close(fd)
            throw Failure(message: "\(message): \(problem)")
        }
        return fd
    }

    /// The whole file, or nil when it does not exist.
    static func readFile(_ dir: Int32, _ name: String) throws(Failure) -> [UInt8]? {
        guard let fd = try openOwned(dir, name, O_RDONLY, failing: "cannot read \(name)") else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var st = stat()
        if fstat(fd, &st) == 0 { bytes.reserveCapacity(Int(st.st_size) + 1) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]); continue }
            if n == 0 { return bytes }
            if errno == EINTR { continue }
            throw Failure("cannot read \(name)")
        }
    }

    /// A new file opened for appending, mode 0600: whatever had the name before (a stale
    /// temporary file, a planted link) is removed, and the file is created exclusively,
    /// so it is never one that someone else opened or pointed somewhere.
    static func create(_ dir: Int32, _ name: String) throws(Failure) -> Int32 {
        removeIfPresent(dir, name)
        return try openPrivate(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_APPEND, failing: "cannot create \(name)")
    }

    /// An existing file opened for appending (and made 0600 if it was not).
    static func openForAppend(_ dir: Int32, _ name: String) throws(Failure) -> Int32 {
        try openPrivate(dir, name, O_WRONLY | O_APPEND, failing: "cannot open \(name)")
    }

    /// Opens `name` in `dir` as `openOwned` does and makes it 0600 whatever the umask or
    /// its old mode was.
    private static func openPrivate(_ dir: Int32, _ name: String, _ flags: Int32, failing message: String) throws(Failure) -> Int32 {
        guard let fd = try openOwned(dir, name, flags, failing: message) else { throw Failure(message, ENOENT) }
        if fchmod(fd, fileMode) != 0 {
            let code = errno
            close(fd)
            throw Failure("cannot chmod \(name)", code)
        }
        return fd
    }

    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ what: String) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            throw Failure("cannot write \(what)", n == 0 ? EIO : errno)
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], _ what: String) throws(Failure) {
        let failure: Failure? = bytes.withUnsafeBytes { raw in
            do throws(Failure) { try writeAll(fd, raw, what) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// The file's data reaches the disk (and its size, which appends change).
    static func syncData(_ fd: Int32, _ what: String) throws(Failure) {
        while fdatasync(fd) != 0 {
            if errno == EINTR { continue }
            throw Failure("cannot fsync \(what)")
        }
    }

    /// Data and metadata: for a directory, the names in it.
    static func sync(_ fd: Int32, _ what: String) throws(Failure) {
        while fsync(fd) != 0 {
            if errno == EINTR { continue }
            throw Failure("cannot fsync \(what)")
        }
    }

    static func rename(_ dir: Int32, _ from: String, _ to: String) throws(Failure) {
        if renameat(dir, from, dir, to) != 0 { throw Failure("cannot rename \(from) to \(to)") }
    }

    static func removeIfPresent(_ dir: Int32, _ name: String) {
        _ = unlinkat(dir, name, 0)
    }

    /// An exclusive lock on `name` in `dir`, held until the returned descriptor closes
    /// (also when the process dies); nil when another process holds it.
    static func lock(_ dir: Int32, _ name: String) throws(Failure) -> Int32? {
        guard let fd = try openOwned(dir, name, O_RDWR | O_CREAT, failing: "cannot open \(name)") else { throw Failure("cannot open \(name)", ENOENT) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { return nil }
            throw Failure("cannot lock \(name)", code)
        }
        return fd
    }
}
