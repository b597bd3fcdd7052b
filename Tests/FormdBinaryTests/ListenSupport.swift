import Foundation
import XCTest

/// A `formd --listen` daemon in a fresh private directory, for the Listen tests.
final class ListenDaemon {
    let dir: String
    let socket: String
    let process = Process()
    /// Whether the directory goes when this daemon does.
    var removesDirectory = true
    private let stderrPipe = Pipe()
    private let stderrCollector = Collector()

    /// Everything read from a pipe, once it reached its end.
    final class Collector: @unchecked Sendable {
        var data = Data()
        let done = DispatchSemaphore(value: 0)
    }

    /// A new directory (mode 0700) under /tmp; socket paths must stay short.
    static func makeDirectory(mode: mode_t = 0o700) -> String {
        var template = Array("/tmp/formd-listen-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        let path = String(cString: made!)
        chmod(path, mode)
        return path
    }

    /// Starts `formd --listen DIR/s ARGS` and waits until it answers.
    init(args: [String] = [], dir: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        self.dir = dir ?? ListenDaemon.makeDirectory()
        socket = self.dir + "/s"
        process.executableURL = FormdProcess.binary
        process.arguments = ["--listen", socket] + args
        process.currentDirectoryURL = FormdProcess.packageRoot
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderrPipe
        try process.run()
        let handle = stderrPipe.fileHandleForReading
        let collector = stderrCollector
        DispatchQueue.global().async {
            collector.data = handle.readDataToEndOfFile()
            collector.done.signal()
        }
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if let fd = try? ListenDaemon.connect(socket) {
                Glibc.close(fd)
                return
            }
            if !process.isRunning { break }
            usleep(5_000)
        }
        XCTFail("formd --listen did not come up: \(stopAndCollect().stderr)", file: file, line: line)
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        if removesDirectory { try? FileManager.default.removeItem(atPath: dir) }
    }

    /// Waits for the daemon to exit (SIGKILL after `timeout`); its status and stderr.
    @discardableResult
    func waitForExit(timeout: TimeInterval = 5) -> (status: Int32, stderr: String) {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            XCTFail("formd --listen did not exit within \(timeout)s")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        _ = stderrCollector.done.wait(timeout: .now() + 5)
        stderrCollector.done.signal()
        return (process.terminationStatus, String(decoding: stderrCollector.data, as: UTF8.self))
    }

    /// The daemon's peak RSS in KiB.
    var peakRSSKiB: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
    }

    /// SIGTERM, then `waitForExit`.
    @discardableResult
    func stopAndCollect() -> (status: Int32, stderr: String) {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        return waitForExit()
    }

    /// A blocking connected socket to `path`.
    static func connect(_ path: String) throws -> Int32 {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: bytes) }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if r != 0 {
            let code = errno
            Glibc.close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        return fd
    }

    /// Leaves a socket file at `path` that nobody listens on, as a daemon that died would.
    static func makeStaleSocket(_ path: String) {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: bytes) }
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        Glibc.close(fd)
    }
}

/// One protocol client of a listening daemon: lines out, lines in (with timeouts).
class LineClient {
    let name: String
    private var buffer: [UInt8] = []
    private(set) var nextID = 1
    /// Every event (notification) read so far, in order.
    var events: [[String: Any]] = []
    /// Set once the daemon closed the connection.
    private(set) var atEnd = false
    /// Speaks `Content-Length` messages instead of lines (`FramedMessages`), both ways.
    var contentLength = false

    init(name: String) {
        self.name = name
        // A daemon or bridge that went away shows up as EPIPE, not as death by signal.
        signal(SIGPIPE, SIG_IGN)
    }

    var readFD: Int32 { fatalError("abstract") }
    func writeBytes(_ data: Data) { fatalError("abstract") }

    func send(_ line: String) { writeBytes(contentLength ? FramedMessages.frame(line) : Data((line + "\n").utf8)) }

    /// Sends a request without waiting; returns its id.
    @discardableResult
    func sendRequest(_ method: String, _ params: [String: Any] = [:]) -> Int {
        let id = nextID
        nextID += 1
        let object: [String: Any] = ["id": id, "method": method, "params": params]
        let data = try! JSONSerialization.data(withJSONObject: object)
        send(String(decoding: data, as: UTF8.self))
        return id
    }

    /// Sends a request and reads until its response, collecting the events before it.
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:], timeout: TimeInterval = 5,
              file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        let id = sendRequest(method, params)
        return response(to: id, timeout: timeout, file: file, line: line)
    }

    /// Reads until the response with `id`; events on the way are kept in `events`.
    func response(to id: Int, timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while let message = readMessage(until: deadline) {
            if message["method"] != nil {
                events.append(message)
            } else if message["id"] as? Int == id {
                return message
            }
        }
        XCTFail("\(name): no response to request \(id) within \(timeout)s", file: file, line: line)
        return [:]
    }

    /// Reads until an event with `seq` ≥ `seq` has arrived (or the time is up).
    func readEvents(throughSeq seq: Int, timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(timeout)
        while (events.last.flatMap { ($0["params"] as? [String: Any])?["seq"] as? Int } ?? 0) < seq {
            guard let message = readMessage(until: deadline) else {
                XCTFail("\(name): events stopped before seq \(seq)", file: file, line: line)
                return
            }
            if message["method"] != nil { events.append(message) }
        }
    }

    /// Reads everything until the daemon closes the connection.
    func readToEnd(timeout: TimeInterval = 5) -> [[String: Any]] {
        var messages: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(timeout)
        while let m = readMessage(until: deadline) { messages.append(m) }
        return messages
    }

    /// One parsed output line, or nil at the end of the stream or the deadline.
    func readMessage(until deadline: Date) -> [String: Any]? {
        guard let text = readLine(until: deadline) else { return nil }
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            XCTFail("\(name): not a JSON object: \(text)")
            return nil
        }
        return object
    }

    /// The next line, or the next message's body when `contentLength`.
    func readLine(until deadline: Date) -> String? {
        while true {
            if contentLength, let (body, rest) = FramedMessages.first(Data(buffer)[...]) {
                buffer = Array(rest)
                return String(decoding: body, as: UTF8.self)
            }
            if !contentLength, let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            if atEnd { return nil }
            let wait = deadline.timeIntervalSinceNow
            if wait <= 0 { return nil }
            var p = pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, Int32(wait * 1000) + 1)
            if r < 0 && errno == EINTR { continue }
            if r <= 0 { return nil }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = read(readFD, &chunk, chunk.count)
            if n <= 0 {
                atEnd = true
            } else {
                buffer.append(contentsOf: chunk[0..<n])
            }
        }
    }
}

/// A client on a raw socket connection.
final class SocketClient: LineClient {
    let fd: Int32

    init(_ path: String, name: String) throws {
        fd = try ListenDaemon.connect(path)
        super.init(name: name)
    }

    deinit { Glibc.close(fd) }

    override var readFD: Int32 { fd }

    override func writeBytes(_ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// Closes the connection at once (whatever was not read is lost).
    func close() { shutdown(fd, Int32(SHUT_RDWR)) }
}

/// A client through `formd attach PATH`, exactly as a stdio client would run it.
final class AttachClient: LineClient {
    let process = Process()
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    let stderrPipe = Pipe()

    init(_ path: String, name: String, executable: URL = FormdProcess.binary, prefix: [String] = []) throws {
        super.init(name: name)
        if prefix.isEmpty {
            process.executableURL = executable
            process.arguments = ["attach", path]
        } else {
            process.executableURL = URL(fileURLWithPath: prefix[0])
            process.arguments = Array(prefix.dropFirst()) + [executable.path, "attach", path]
        }
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    override var readFD: Int32 { stdoutPipe.fileHandleForReading.fileDescriptor }

    override func writeBytes(_ data: Data) {
        try? stdinPipe.fileHandleForWriting.write(contentsOf: data)
    }

    /// Ends the bridge's input, as the end of a stdio client's input.
    func closeInput() { try? stdinPipe.fileHandleForWriting.close() }

    func waitForExit(timeout: TimeInterval = 5) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning { return nil }
        return process.terminationStatus
    }

    var stderr: String {
        String(decoding: stderrPipe.fileHandleForReading.availableData, as: UTF8.self)
    }
}

extension Dictionary where Key == String, Value == Any {
    var params: [String: Any] { self["params"] as? [String: Any] ?? [:] }
    var result: [String: Any] { self["result"] as? [String: Any] ?? [:] }
    var method: String? { self["method"] as? String }
    var seq: Int? { params["seq"] as? Int }
}
