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
