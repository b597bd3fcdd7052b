import Foundation
import XCTest

/// `formd call` and `formd wait` against a real `formd --listen`: what they print and every
/// exit status they document (issue 19).
final class CallWaitTests: XCTestCase {
    /// A finished `formd call`/`formd wait`.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// A `formd ARGS` process with FORMD_SOCKET set as given (unset when nil).
    final class Command {
        let process = Process()
        private let out = Pipe(), err = Pipe()

        init(_ args: [String], socket: String?, stdin: FileHandle = FileHandle.nullDevice) throws {
            process.executableURL = FormdProcess.binary
            process.arguments = args
            process.currentDirectoryURL = FormdProcess.packageRoot
            var env = ProcessInfo.processInfo.environment
            env["FORMD_SOCKET"] = socket
            process.environment = env
            process.standardInput = stdin
            process.standardOutput = out
            process.standardError = err
            try process.run()
        }

        /// Waits for it to exit (fails the test after `timeout`).
        func finish(timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) -> Run {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(2_000) }
            if process.isRunning {
                XCTFail("formd \(process.arguments ?? []) did not exit within \(timeout)s", file: file, line: line)
                process.terminate()
            }
            process.waitUntilExit()
            return Run(status: process.terminationStatus,
                       stdout: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                       stderr: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
    }

    private var daemon: ListenDaemon!

    override func setUpWithError() throws {
        daemon = try ListenDaemon(args: ["--form", "examples/login.json"])
    }

    override func tearDown() {
        daemon = nil
    }

    @discardableResult
    private func formd(_ args: String..., socket: String? = "", file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        try Command(args, socket: socket == "" ? daemon.socket : socket).finish(file: file, line: line)
    }

    private func state(form: String = "default") throws -> [String: Any] {
        let run = try formd("call", "--form", form, "getState")
        XCTAssertEqual(run.status, 0, run.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    private func text(_ field: String, form: String = "default") throws -> String? {
        let fields = try state(form: form)["fields"] as? [[String: Any]] ?? []
        return fields.first { $0["id"] as? String == field }?["text"] as? String
    }

    // MARK: formd call

    func testCallPrintsTheResultAndExitsZero() throws {
        let run = try formd("call", "setText", "field=email", "text=ada@example.com")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "{\"applied\":true}\n")
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(try text("email"), "ada@example.com")
    }

    func testCallTakesKeyValuePairsOrOneJSONObject() throws {
        // KEY=STRING keeps everything after the first '=' as text; KEY:=JSON parses.
        XCTAssertEqual(try formd("call", "setText", "field=email", "text=a=b:=c").status, 0)
        XCTAssertEqual(try text("email"), "a=b:=c")
        XCTAssertEqual(try formd("call", "setText", #"{"field":"email","text":"x\"y"}"#).status, 0)
        XCTAssertEqual(try text("email"), "x\"y")
        XCTAssertEqual(try formd("call", "setEnabled", "field=email", "enabled:=false").stdout, "{}\n")
        let fields = try state()["fields"] as? [[String: Any]] ?? []
        XCTAssertEqual(fields.first?["enabled"] as? Bool, false)
        // --form adds "form"; options may come after the method.
        let define = try formd("call", "defineForm", #"fields:=[{"id":"a"},{"id":"b"}]"#, "--form", "f")
        XCTAssertEqual(define.status, 0, define.stderr)
        XCTAssertEqual(try formd("call", "setText", "--form", "f", "field=b", "text=in f").status, 0)
        XCTAssertEqual(try text("b", form: "f"), "in f")
    }

    func testCallReadsAValueFromAFileSoASecretStaysOffTheCommandLine() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("formd-call-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("pa\"ss wörd\n".utf8).write(to: file)
        XCTAssertEqual(try formd("call", "setText", "field=email", "text=@\(file.path)").status, 0)
        XCTAssertEqual(try text("email"), "pa\"ss wörd", "the file's text without its final newline")
        try Data(#"{"id":"extra"}"#.utf8).write(to: file)
        XCTAssertEqual(try formd("call", "addField", "field:=@\(file.path)").status, 0)
        XCTAssertEqual(try text("extra"), "")
        XCTAssertEqual(try formd("call", "setText", "field=email", #"text=\@ada"#).status, 0)
        XCTAssertEqual(try text("email"), "@ada", "\\@ is a literal @")
        let missing = try formd("call", "setText", "field=email", "text=@/nonexistent/secret")
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("cannot read '/nonexistent/secret'"), missing.stderr)
        XCTAssertEqual(try text("email"), "@ada", "a value it cannot read changes nothing")
    }

    func testCallTakesTheSocketFromFormdSocketOrTheOption() throws {
        let fromEnv = try formd("call", "focusNext")
        XCTAssertEqual(fromEnv.stdout, "{\"firstResponder\":\"email\",\"moved\":true}\n")
        let fromOption = try formd("call", "--socket", daemon.socket, "focusNext", socket: nil)
        XCTAssertEqual(fromOption.stdout, "{\"firstResponder\":\"password\",\"moved\":true}\n")
        let neither = try formd("call", "getState", socket: nil)
        XCTAssertEqual(neither.status, 2)
        XCTAssertTrue(neither.stderr.contains("give --socket <path> or set FORMD_SOCKET"), neither.stderr)
    }

    func testAnErrorResponseExitsOneWithCodeAndMessageOnStderr() throws {
        let run = try formd("call", "setText", "field=nope", "text=x")
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, "formd: -32001 unknown field \"nope\" in form \"default\"\n")
        let unknown = try formd("call", "bogus")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.hasPrefix("formd: -32601 "), unknown.stderr)
    }

    func testResultsThatSayItDidNotHappenExitOne() throws {
        // applied: false (Backspace in an empty field).
        var run = try formd("call", "delete", "field=email")
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, "{\"applied\":false,\"reason\":\"empty\"}\n")
        XCTAssertEqual(run.stderr, "")
        // performed: false (a masked field offers no copy).
        run = try formd("call", "editAction", "field=password", "action=copy")
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stdout.hasPrefix("{\"performed\":false"), run.stdout)
        // valid: false from validate and from submit.
        run = try formd("call", "validate")
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stdout.hasPrefix("{\"valid\":false"), run.stdout)
        run = try formd("call", "submit")
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stdout.hasPrefix("{\"valid\":false"), run.stdout)
        // outcome: "refused" (a field that may not become first responder).
        XCTAssertEqual(try formd("call", "configureField", "field=password", "canBecomeFirstResponder:=false").status, 0)
        run = try formd("call", "demandFocus", "field=password", "demand=become")
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, "{\"outcome\":\"refused\"}\n")
        // …and their successful twins exit 0.
        XCTAssertEqual(try formd("call", "setText", "field=email", "text=ada@example.com").status, 0)
        XCTAssertEqual(try formd("call", "setText", "field=password", "text=long enough").status, 0)
        XCTAssertEqual(try formd("call", "validate").stdout, "{\"valid\":true,\"errors\":[]}\n")
        XCTAssertEqual(try formd("call", "validate").status, 0)
        XCTAssertEqual(try formd("call", "submit").status, 0)
        XCTAssertEqual(try formd("call", "demandFocus", "field=email", "demand=become").status, 0)
    }

    func testUsageErrorsExitTwoAndSayWhatToDo() throws {
        let cases: [([String], String)] = [
            (["call"], "missing the method"),
            (["call", "setText", "field"], "'field': no '=' in it, so it is neither a param nor a JSON object; write <key>=<string>"),
            (["call", "setText", "n:=nope"], "'n:=nope': the value after ':=' is not JSON"),
            (["call", "setText", "{\"field\":"], "the params '{\"field\":' are not JSON"),
            (["call", "setText", "[1]"], "the params are a JSON object, not an array"),
            (["call", "setText", "=x"], "'=x' has no key before '='"),
            (["call", "setText", "a=1", "a=2"], "the param 'a' is given twice"),
            (["call", "setText", "{}", "a=1"], "either as one JSON object or as <key>=<string>"),
            (["call", "--form", "f", "getState", "form=g"], "the form is given twice"),
            (["call", "--colour", "getState"], "unknown option '--colour'"),
            (["call", "getState", "--timeout", "soon"], "'--timeout' takes a number of seconds"),
            (["call", "getState", "--socket"], "missing value for '--socket'"),
        ]
        for (args, message) in cases {
            let run = try Command(args, socket: daemon.socket).finish()
            XCTAssertEqual(run.status, 2, "\(args)")
            XCTAssertEqual(run.stdout, "", "\(args)")
            XCTAssertTrue(run.stderr.hasPrefix("formd: ") && run.stderr.contains(message), "\(args): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("See 'formd call --help'"), run.stderr)
        }
        XCTAssertEqual(try state()["seq"] as? Int, 0, "nothing reached the daemon")
        let help = try formd("call", "--help")
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("EXIT STATUS") && help.stdout.contains("EXAMPLES"), help.stdout)
    }

    func testNoDaemonAtTheSocketExitsTwo() throws {
        let missing = try formd("call", "getState", socket: daemon.dir + "/nothing")
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("no formd is listening on \(daemon.dir)/nothing"), missing.stderr)
        ListenDaemon.makeStaleSocket(daemon.dir + "/stale")
        let stale = try formd("call", "getState", socket: daemon.dir + "/stale")
        XCTAssertEqual(stale.status, 2)
        XCTAssertTrue(stale.stderr.contains("left from a daemon that is gone"), stale.stderr)
    }

    /// A socket that accepts connections into its backlog but never answers.
    private func silentListener(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        listen(fd, 8)
        return fd
    }

    func testNoAnswerInTimeOrADaemonThatGoesAwayExitsTwo() throws {
        let path = daemon.dir + "/silent"
        let listener = silentListener(path)
        let late = try formd("call", "--timeout", "0.3", "getState", socket: path)
        XCTAssertEqual(late.status, 2)
        XCTAssertTrue(late.stderr.contains("no response from the daemon at \(path) within 0.3 s"), late.stderr)
        _ = accept(listener, nil, nil)  // the timed-out call's connection, waiting in the backlog
        // Waiting for ever; the daemon goes away before answering.
        let waiting = try Command(["call", "getState"], socket: path)
        let connection = accept(listener, nil, nil)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains("getState") {
            let n = read(connection, &chunk, chunk.count)
            if n <= 0 { break }
            received += chunk[0..<n]
        }
        close(connection)
        close(listener)
        let gone = waiting.finish()
        XCTAssertEqual(gone.status, 2)
        XCTAssertTrue(gone.stderr.contains("closed the connection before answering"), gone.stderr)
    }

    // MARK: formd wait

    /// Connections a daemon has accepted on `socket`: /proc/net/unix lists each under the
    /// listening socket's path, besides the listener itself.
    private func connections(to socket: String) -> Int {
        // Read to its end (procfs files report no size).
        let data = FileHandle(forReadingAtPath: "/proc/net/unix")?.readDataToEndOfFile() ?? Data()
        let table = String(decoding: data, as: UTF8.self)
        return table.split(separator: "\n").filter { $0.hasSuffix(" " + socket) }.count - 1
    }

    /// Runs `formd wait ARGS` while `cause` runs again and again (every 20 ms) until the
    /// wait has exited, so the event cannot happen before the wait has subscribed.
    private func wait(_ args: [String], causing cause: () throws -> Void) throws -> Run {
        try Self.wait(args, socket: daemon.socket, causing: cause)
    }

    static func wait(_ args: [String], socket: String, causing cause: () throws -> Void) throws -> Run {
        let waiting = try Command(["wait"] + args, socket: socket)
        let deadline = Date().addingTimeInterval(10)
        while waiting.process.isRunning && Date() < deadline {
            try cause()
            usleep(20_000)
        }
        return waiting.finish()
    }

    private func params(_ run: Run) throws -> [String: Any] {
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasSuffix("}\n") && !run.stdout.dropLast().contains("\n"), run.stdout)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    func testWaitPrintsTheFirstMatchingEventsParams() throws {
        try formd("call", "setText", "field=email", "text=ada@example.com")
        try formd("call", "setText", "field=password", "text=long enough")
        let run = try wait(["submitted", "submitFailed"]) { try formd("call", "submit") }
        let p = try params(run)
        XCTAssertEqual(p["form"] as? String, "default")
        XCTAssertEqual(p["values"] as? [String: String], ["email": "ada@example.com"])
        XCTAssertEqual(p["withheld"] as? [String], ["password"])
        XCTAssertEqual(run.stderr, "")
    }

    func testWaitOnlyCountsItsFormAndField() throws {
        let define = try formd("call", "defineForm", "--form", "f", #"fields:=[{"id":"a"},{"id":"b"}]"#)
        XCTAssertEqual(define.status, 0, define.stderr)
        var n = 0
        let run = try wait(["--form", "f", "--field", "b", "textChanged"]) {
            n += 1
            try formd("call", "setText", "field=email", "text=x\(n)")
            try formd("call", "setText", "--form", "f", "field=a", "text=a\(n)")
            try formd("call", "setText", "--form", "f", "field=b", "text=b\(n)")
        }
        let p = try params(run)
        XCTAssertEqual(p["form"] as? String, "f")
        XCTAssertEqual(p["field"] as? String, "b")
        XCTAssertTrue((p["text"] as? String)?.hasPrefix("b") == true, "\(p)")
    }

    func testWaitNeverShowsASecret() throws {
        var n = 0
        let run = try wait(["--field", "password", "textChanged"]) {
            n += 1
            try formd("call", "setText", "field=password", "text=hunter2hunter\(n % 2)")
        }
        let p = try params(run)
        XCTAssertNil(p["text"])
        XCTAssertEqual(p["display"] as? String, String(repeating: "•", count: 14))
        XCTAssertFalse(run.stdout.contains("hunter2"))
    }

    func testWaitTimesOutWithStatusOne() throws {
        let run = try formd("wait", "--timeout", "0.2", "submitted")
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, "formd: no submitted within 0.2 s\n")
    }

    func testWaitExitsTwoWhenTheDaemonGoesAway() throws {
        let waiting = try Command(["wait", "submitted"], socket: daemon.socket)
        // Once the daemon has accepted the wait's connection, a shutdown reaches it.
        let deadline = Date().addingTimeInterval(10)
        while connections(to: daemon.socket) < 1 && Date() < deadline { usleep(5_000) }
        let shutdown = try formd("call", "shutdown")
        XCTAssertEqual(shutdown.stdout, "{}\n")
        let run = waiting.finish()
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.contains("is shutting down (request)"), run.stderr)
        XCTAssertEqual(daemon.waitForExit().status, 0)
        let none = try formd("wait", "submitted")
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.stderr.contains("no formd is listening"), none.stderr)
    }

    func testWaitUsageErrorsExitTwo() throws {
        for (args, message) in [
            (["wait"], "missing the event to wait for"),
            (["wait", "bogus"], "unknown event \"bogus\""),
            (["wait", "--field"], "missing value for '--field'"),
            (["wait", "--timeout", "-1", "submitted"], "'--timeout' takes a number of seconds"),
            (["wait", "--secrets", "submitted"], "unknown option '--secrets'"),
        ] {
            let run = try Command(args, socket: daemon.socket).finish()
            XCTAssertEqual(run.status, 2, "\(args)")
            XCTAssertTrue(run.stderr.contains(message), "\(args): \(run.stderr)")
        }
    }
}
