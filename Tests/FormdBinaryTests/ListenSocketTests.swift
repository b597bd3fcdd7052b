import Foundation
import XCTest

/// Who may connect, where the socket may live, and what happens to an existing socket.
final class ListenSocketTests: XCTestCase {
    private func mode(_ path: String) -> mode_t {
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0, path)
        return st.st_mode
    }

    func testTheSocketIsPrivateAndItsDirectoryMustBe() throws {
        let daemon = try ListenDaemon()
        XCTAssertEqual(mode(daemon.socket) & S_IFMT, S_IFSOCK)
        XCTAssertEqual(mode(daemon.socket) & 0o777, 0o600)
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: daemon.socket), "the socket is removed at exit")

        // A directory others (or the group) may write to: someone could swap the socket.
        for dirMode: mode_t in [0o777, 0o1777, 0o770, 0o722] {
            let dir = ListenDaemon.makeDirectory(mode: dirMode)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let out = try FormdProcess.run(["--listen", dir + "/s"])
            XCTAssertEqual(out.status, 2, "mode \(String(dirMode, radix: 8))")
            XCTAssertTrue(out.stderr.contains("refusing to listen in \(dir): it is writable by"), out.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/s"))
        }
        // Something that is not a socket is never replaced.
        let dir = ListenDaemon.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        FileManager.default.createFile(atPath: dir + "/s", contents: Data("keep me".utf8))
        let out = try FormdProcess.run(["--listen", dir + "/s"])
        XCTAssertEqual(out.status, 2)
        XCTAssertTrue(out.stderr.contains("exists and is not a socket"), out.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: dir + "/s"), Data("keep me".utf8))
        // --max-client-buffer belongs to --listen.
        let usage = try FormdProcess.run(["--max-client-buffer", "100"])
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.stderr.contains("'--max-client-buffer' goes with '--listen <socket>'"), usage.stderr)
    }

    /// A client that sees the socket's file can connect: the file appears only once formd
    /// listens on it. Bound at its path, it was there a moment before `listen`, and a client
    /// polling for it on the same CPU (as `scripts/bench` pins its processes) was refused
    /// about one start in six. Stopped (SIGTERM) right after, it removes the file and leaves
    /// nothing else (the handler's flag was a plain variable: a signal landing inside a read
    /// of it trapped on exclusivity and left the socket behind).
    func testTheSocketFileAppearsOnlyOnceFormdListens() throws {
        // sched_{get,set}affinity are GNU extensions Glibc's module does not export.
        typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
        let getAffinity = unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_getaffinity")!, to: Affinity.self)
        let setAffinity = unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_setaffinity")!, to: Affinity.self)
        var all = cpu_set_t()
        XCTAssertEqual(getAffinity(0, MemoryLayout<cpu_set_t>.size, &all), 0)
        var one = cpu_set_t()
        withUnsafeBytes(of: all) { from in
            withUnsafeMutableBytes(of: &one) { to in
                let byte = from.firstIndex { $0 != 0 }!
                to[byte] = from[byte] & (~from[byte] &+ 1)
            }
        }
        XCTAssertEqual(setAffinity(0, MemoryLayout<cpu_set_t>.size, &one), 0)
        defer { _ = setAffinity(0, MemoryLayout<cpu_set_t>.size, &all) }
        var refused = 0
        for _ in 0..<150 {
            let dir = ListenDaemon.makeDirectory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let process = Process()
            process.executableURL = FormdProcess.binary
            process.arguments = ["--listen", dir + "/s"]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            let errPipe = Pipe()
            process.standardError = errPipe
            try process.run()
            let deadline = Date().addingTimeInterval(5)
            var st = stat()
            while lstat(dir + "/s", &st) != 0 && Date() < deadline { usleep(100) }
            do {
                Glibc.close(try ListenDaemon.connect(dir + "/s"))
            } catch {
                refused += 1
            }
            process.terminate()
            process.waitUntilExit()
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [], "formd removes its socket and leaves nothing else \(process.terminationStatus) \(process.terminationReason.rawValue) \(String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        }
        XCTAssertEqual(refused, 0, "connections refused after the socket's file appeared")
    }

    func testAStaleSocketIsReplacedAndALiveOneIsNotStolen() throws {
        // A socket file left by a daemon that died.
        let dir = ListenDaemon.makeDirectory()
        ListenDaemon.makeStaleSocket(dir + "/s")
        XCTAssertEqual(mode(dir + "/s") & S_IFMT, S_IFSOCK)
        let first = try ListenDaemon(dir: dir)
        let client = try SocketClient(first.socket, name: "client")
        XCTAssertNotNil(client.call("defineForm", ["fields": [["id": "a", "text": "first"]]])["result"])

        // A second daemon on the same path leaves the live one alone.
        let second = try FormdProcess.run(["--listen", first.socket])
        XCTAssertEqual(second.status, 2)
        XCTAssertTrue(second.stderr.contains("another formd is listening on \(first.socket)"), second.stderr)
        XCTAssertEqual(client.call("getState").result["seq"] as? Int, 1, "the first daemon still serves")
        let newcomer = try SocketClient(first.socket, name: "newcomer")
        XCTAssertEqual((newcomer.call("getState").result["fields"] as? [[String: Any]])?.first?["text"] as? String, "first")

        // Killed without a chance to clean up, it leaves a stale socket; the next start takes it.
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        XCTAssertEqual(mode(first.socket) & S_IFMT, S_IFSOCK)
        let again = try ListenDaemon(dir: dir)
        XCTAssertEqual(try SocketClient(again.socket, name: "again").call("getState").result["seq"] as? Int, 0)
        XCTAssertEqual(again.stopAndCollect().status, 0)
    }

    func testAnotherUsersConnectionIsRefused() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root, to connect as another user (nobody)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { throw XCTSkip("needs setpriv (util-linux)") }
        // For this test only the directory is traversable (never writable) by others, and
        // the binary is copied where nobody can run it.
        let dir = ListenDaemon.makeDirectory(mode: 0o711)
        let binary = dir + "/formd"
        try FileManager.default.copyItem(atPath: FormdProcess.binary.path, toPath: binary)
        chmod(binary, 0o755)
        let daemon = try ListenDaemon(dir: dir)
        let owner = try SocketClient(daemon.socket, name: "owner")
        XCTAssertNotNil(owner.call("defineForm", ["fields": [["id": "a"]]])["result"])
        let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

        // The socket's mode (0600) already keeps nobody out.
        let denied = try AttachClient(daemon.socket, name: "nobody", executable: URL(fileURLWithPath: binary), prefix: nobody)
        denied.closeInput()
        XCTAssertEqual(denied.waitForExit(), 1)
        XCTAssertTrue(denied.stderr.contains("permission denied"), denied.stderr)

        // Even if the socket's mode were loosened, the peer's uid (SO_PEERCRED) is checked.
        chmod(daemon.socket, 0o666)
        let refused = try AttachClient(daemon.socket, name: "nobody", executable: URL(fileURLWithPath: binary), prefix: nobody)
        refused.send(#"{"id":1,"method":"setText","params":{"field":"a","text":"intruder"}}"#)
        let messages = refused.readToEnd()
        XCTAssertEqual(messages.count, 1, "\(messages)")
        XCTAssertEqual(messages.first?.method, "error")
        XCTAssertEqual(messages.first?.params["code"] as? Int, -32004)
        XCTAssertTrue((messages.first?.params["message"] as? String ?? "").contains("uid 65534"))
        refused.closeInput()
        XCTAssertNotNil(refused.waitForExit())

        // Nothing changed, and the owner is still served.
        XCTAssertEqual(owner.call("getState").result["seq"] as? Int, 1)
        XCTAssertTrue(owner.events.allSatisfy { $0.method != "textChanged" })
        let result = daemon.stopAndCollect()
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("refused a connection from uid 65534"), result.stderr)
    }

    func testCommandLineOfListenAndAttach() throws {
        let help = try FormdProcess.run(["--help"])
        for needle in ["--listen <socket>", "--max-client-buffer <n>", "attach <socket>"] {
            XCTAssertTrue(help.stdout.contains(needle), "--help lacks \(needle)")
        }
        let bare = try FormdProcess.run(["attach"])
        XCTAssertEqual(bare.status, 2)
        XCTAssertTrue(bare.stderr.contains("'attach' takes the socket path"), bare.stderr)
        let dir = ListenDaemon.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let none = try FormdProcess.run(["attach", dir + "/s"], input: #"{"id":1,"method":"validate"}"# + "\n")
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("no formd is listening on \(dir)/s"), none.stderr)
        ListenDaemon.makeStaleSocket(dir + "/s")
        let stale = try FormdProcess.run(["attach", dir + "/s"])
        XCTAssertEqual(stale.status, 1)
        XCTAssertTrue(stale.stderr.contains("left from a daemon that is gone"), stale.stderr)
        XCTAssertEqual(stale.stdout, "")
        FileManager.default.createFile(atPath: dir + "/plain", contents: Data())
        let plain = try FormdProcess.run(["attach", dir + "/plain"])
        XCTAssertEqual(plain.status, 1)
        XCTAssertTrue(plain.stderr.contains("\(dir)/plain is not a socket"), plain.stderr)
    }
}
