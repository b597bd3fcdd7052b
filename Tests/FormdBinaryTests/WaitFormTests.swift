import Foundation
import XCTest

/// `formd wait --form NAME` for a form the daemon does not have (an error at once, unless
/// `--allow-missing-form`), and `formd wait --get`.
final class WaitFormTests: XCTestCase {
    private var daemon: ListenDaemon!

    override func setUpWithError() throws {
        daemon = try ListenDaemon(args: ["--form", "examples/login.json"])
    }

    override func tearDown() {
        daemon = nil
    }

    private func formd(_ args: String...) throws -> CallWaitTests.Run {
        try CallWaitTests.Command(args, socket: daemon.socket).finish()
    }

    private func wait(_ args: [String], causing cause: () throws -> Void) throws -> CallWaitTests.Run {
        try CallWaitTests.wait(args, socket: daemon.socket, causing: cause)
    }

    func testAnUnknownFormFailsAtOnce() throws {
        let started = Date()
        // No --timeout: before, this waited for ever.
        let run = try CallWaitTests.Command(["wait", "--form", "nosuch", "submitted"], socket: daemon.socket).finish(timeout: 5)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        XCTAssertEqual(run.status, 4)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, "formd: the daemon at \(daemon.socket) has no form \"nosuch\" (check --form; to wait until a client defines it, add --allow-missing-form)\n")
        // Several: every missing one is named; the default form always exists.
        let two = try formd("wait", "--form", "default", "--form", "a", "--form", "b", "--form", "a", "submitted")
        XCTAssertEqual(two.status, 4)
        XCTAssertTrue(two.stderr.contains("has no forms \"a\", \"b\" (check --form"), two.stderr)
        // Asking changed nothing.
        XCTAssertEqual(try formd("call", "getState", "--get", "/seq").stdout, "0\n")
        let known = try formd("wait", "--form", "default", "--timeout", "0.2", "submitted")
        XCTAssertEqual(known.status, 1, "an existing form is waited on: \(known.stderr)")
    }

    func testAllowMissingFormWaitsForTheFormToBeDefined() throws {
        var defined = false
        var n = 0
        let run = try wait(["--form", "later", "--allow-missing-form", "textChanged"]) {
            if !defined {
                defined = try formd("call", "defineForm", "--form", "later", #"fields:=[{"id":"a"}]"#).status == 0
            }
            // A new text each time: the same text again is no change and emits nothing, so a
            // first setText before the wait subscribed would leave it waiting for ever.
            n += 1
            try formd("call", "setText", "--form", "later", "field=a", "text=x\(n)")
        }
        XCTAssertEqual(run.status, 0, run.stderr)
        let params = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(params["form"] as? String, "later")
        XCTAssertTrue((params["text"] as? String ?? "").hasPrefix("x"), "\(params)")
        let bad = try formd("wait", "--allow-missing-form=yes", "submitted")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("'--allow-missing-form' takes no value"), bad.stderr)
    }

    /// The event that comes while the form is being checked still counts.
    func testAnEventDuringTheCheckCounts() throws {
        var n = 0
        let run = try wait(["--form", "default", "--field", "email", "textChanged"]) {
            n += 1
            try formd("call", "setText", "field=email", "text=x\(n)")
        }
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("\"field\":\"email\""), run.stdout)
    }

    func testGetPrintsOneValueOfTheEventRaw() throws {
        let email = #""ada\"\n'o"@example.com"#
        XCTAssertEqual(try formd("call", "setText", "field=email", "text=\(email)").status, 0)
        XCTAssertEqual(try formd("call", "setText", "field=password", "text=long enough").status, 0)
        let run = try wait(["--get", "/values/email", "submitted"]) { try formd("call", "submit") }
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, email + "\n")
        // A masked field's text is never in an event: nothing there, exit 3, said on stderr.
        let masked = try wait(["--get", "/values/password", "submitted"]) { try formd("call", "submit") }
        XCTAssertEqual(masked.status, 3)
        XCTAssertEqual(masked.stdout, "")
        XCTAssertEqual(masked.stderr, "formd: nothing at /values/password: '/values' has no member 'password' (it has 'email')\n")
    }
}
