import Foundation
import XCTest

/// `formd call`'s params arguments, each form wrong in each way, and `--get`: every mistake
/// says what was wrong and what to write instead, exits 2 and sends nothing.
final class CallArgumentTests: XCTestCase {
    private var daemon: ListenDaemon!
    private var scratch: String!

    override func setUpWithError() throws {
        daemon = try ListenDaemon(args: ["--form", "examples/login.json"])
        scratch = daemon.dir
    }

    override func tearDown() {
        daemon = nil
    }

    private func formd(_ args: [String], stdin: String? = nil) throws -> CallWaitTests.Run {
        guard let stdin else { return try CallWaitTests.Command(args, socket: daemon.socket).finish() }
        let file = scratch + "/stdin"
        try Data(stdin.utf8).write(to: URL(fileURLWithPath: file))
        let command = try CallWaitTests.Command(args, socket: daemon.socket, stdin: try XCTUnwrap(FileHandle(forReadingAtPath: file)))
        return command.finish()
    }

    private func seq() throws -> Int? {
        let run = try formd(["call", "getState", "--get", "/seq"])
        return Int(run.stdout.dropLast())
    }

    /// Each malformed argument: exit 2, nothing on stdout, the message (which quotes the
    /// argument and says what to write), the usage line, and nothing reached the daemon.
    func testEveryArgumentFormSaysWhatWasWrongAndWhatToWrite() throws {
        let notJSONFile = scratch + "/not-json"
        try Data("{\n".utf8).write(to: URL(fileURLWithPath: notJSONFile))
        let cases: [(args: [String], stdin: String?, message: String)] = [
            // KEY:=JSON
            ([":=1"], nil, "':=1' has no key before ':='; write <key>:=<json>, such as enabled:=false"),
            ([":="], nil, "':=' has no key before ':='; write <key>:=<json>"),
            (["text:="], nil, "'text:=' has no JSON after ':='; write text:=<json> (text:=false, text:=3, text:='\"text\"'), or text= for an empty string"),
            (["text:=ada"], nil, "'text:=ada': the value after ':=' is not JSON (expected a value at byte 0); write JSON, quoted for the shell (text:=false, text:='[\"a\",1]'), or text=ada for the string"),
            // KEY=STRING
            (["=x"], nil, "'=x' has no key before '='; write <key>=<string>, such as field=email"),
            (["field"], nil, "'field': no '=' in it, so it is neither a param nor a JSON object; write <key>=<string> (text=ada), <key>:=<json> (enabled:=false), <key>=@<file> (text=@- for stdin) or one JSON object ('{\"field\":\"email\"}')"),
            (["field=email", "field=password"], nil, "'field=password': the param 'field' is given twice; give it once"),
            // KEY=@FILE
            (["text=@"], nil, "'text=@' names no file after '@'; write @<file> to read the value from a file, @- for stdin, or \\@ for a value that starts with @"),
            (["text:=@"], nil, "'text:=@' names no file after '@'"),
            (["text=@/nonexistent/secret"], nil, "'text=@/nonexistent/secret': cannot read '/nonexistent/secret': No such file or directory; a value that starts with @ is read from that file (write \\@ for a literal @)"),
            (["text:=@\(notJSONFile)"], nil, "'text:=@\(notJSONFile)': '\(notJSONFile)' does not hold JSON"),
            (["text:=@\(notJSONFile)"], nil, "to send its text as a string write text=@\(notJSONFile)"),
            // KEY=@-
            (["text:=@-"], "ada\n", "'text:=@-': stdin does not hold JSON (expected a value at byte 0); to send its text as a string write text=@-"),
            (["field=@-", "text=@-"], "email\n", "'text=@-': stdin was already read for 'field=@-'; only one value can come from @-, read the others from files (text=@<file>)"),
            // One JSON object
            (["{\"field\":"], nil, "the params '{\"field\":' are not JSON ("),
            (["[\"email\"]"], nil, "'[\"email\"]': the params are a JSON object, not an array; write <key>=<string>"),
            (["{}", "text=x"], nil, "'{}': give the params either as one JSON object or as <key>=<string> and <key>:=<json> pairs, not both"),
        ]
        for (args, stdin, message) in cases {
            let run = try formd(["call", "setText"] + args, stdin: stdin)
            XCTAssertEqual(run.status, 2, "\(args): \(run.stderr)")
            XCTAssertEqual(run.stdout, "", "\(args)")
            XCTAssertTrue(run.stderr.hasPrefix("formd: ") && run.stderr.contains(message), "\(args)\nwant: \(message)\ngot:  \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("\nUsage: formd call ") && run.stderr.hasSuffix("See 'formd call --help' for more information.\n"), run.stderr)
        }
        XCTAssertEqual(try seq(), 0, "nothing reached the daemon")
    }

    /// An option that takes one value, given twice, was taken silently (the last won).
    func testAnOptionGivenTwiceIsAnError() throws {
        for args in [["call", "--form", "a", "getState", "--form", "b"],
                     ["call", "--socket", daemon.socket, "--socket=\(daemon.socket)", "getState"],
                     ["call", "--timeout", "1", "--timeout", "2", "getState"],
                     ["call", "--get", "/a", "--get", "/b", "getState"],
                     ["wait", "--timeout", "1", "--timeout", "2", "submitted"],
                     ["wait", "--get", "/a", "--get", "/b", "submitted"]] {
            let run = try formd(args)
            XCTAssertEqual(run.status, 2, "\(args)")
            XCTAssertTrue(run.stderr.hasPrefix("formd: '\(args[1].prefix { $0 != "=" })' is given twice; give it once\n"), "\(args): \(run.stderr)")
        }
        XCTAssertEqual(try formd(["wait", "--form", "default", "--form", "default", "--timeout", "0.1", "submitted"]).status, 1,
                       "formd wait takes several --form")
    }

    /// What the messages suggest works.
    func testWhatTheMessagesSuggestWorks() throws {
        XCTAssertEqual(try formd(["call", "setText", "field=email", "text=ada"]).status, 0)
        XCTAssertEqual(try formd(["call", "setText", "field=email", #"text:="ada""#]).status, 0)
        XCTAssertEqual(try formd(["call", "setText", "field=email", "text="]).status, 0)
        XCTAssertEqual(try formd(["call", "getState", "--get", "/fields/0/text"]).stdout, "\n", "text= is the empty string")
        let piped = try formd(["call", "setText", "field=email", "text=@-"], stdin: "{\n")
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(try formd(["call", "getState", "--get", "/fields/0/text"]).stdout, "{\n")
    }

    /// `--get`: a string raw, anything else compact JSON; nothing there is exit 3 saying what
    /// is there, after the request was carried out.
    func testGetPrintsOneValueRaw() throws {
        let text = "a \"quoted\" \\ back/slash\ttab ü"
        let set = try formd(["call", "setText", "field=email", "text=@-", "--get", "/applied"], stdin: text + "\n")
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(set.stdout, "true\n")
        var run = try formd(["call", "--get", "/fields/0/text", "getState"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, text + "\n", "a string is printed raw: no quotes, no escapes")
        run = try formd(["call", "getState", "--get", "/fields/0/selection"])
        XCTAssertEqual(run.stdout, "{\"start\":\(text.count),\"end\":\(text.count)}\n", "anything else as compact JSON")
        run = try formd(["call", "getState", "--get", "/firstResponder"])
        XCTAssertEqual(run.stdout, "null\n")
        // A name holding '/' or '~' is written ~1 and ~0 (RFC 6901).
        XCTAssertEqual(try formd(["call", "defineForm", "--form", "f", #"fields:=[{"id":"a/b~c","text":"x"}]"#]).status, 0)
        run = try formd(["call", "validate", "--form", "f", "--get", "/valid"])
        XCTAssertEqual(run.stdout, "true\n")
        run = try formd(["call", "submit", "--form", "f", "--get", "/values/a~1b~0c"])
        XCTAssertEqual(run.stdout, "x\n")
        // A result that says it did not happen: the value, and exit 1 as without --get.
        run = try formd(["call", "delete", "field=password", "--get", "/reason"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, "empty\n")

        // Nothing there: exit 3, nothing on stdout, what is there on stderr; the request
        // still happened.
        let before = try seq() ?? -1
        run = try formd(["call", "focusNext", "--get", "/firstResponderr"])
        XCTAssertEqual(run.status, 3)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, "formd: nothing at /firstResponderr: the top has no member 'firstResponderr' (it has 'firstResponder', 'moved')\n")
        XCTAssertGreaterThan(try seq() ?? -1, before, "focusNext was carried out")
        run = try formd(["call", "getState", "--get", "/fields/2"])
        XCTAssertEqual(run.status, 3)
        XCTAssertEqual(run.stderr, "formd: nothing at /fields/2: '/fields' is an array of 2 (indexes from 0)\n")
        run = try formd(["call", "getState", "--get", "/seq/x"])
        XCTAssertEqual(run.stderr, "formd: nothing at /seq/x: '/seq' is a JSON number, not an object or array\n")
        // A pointer that is not one: a usage error, nothing sent.
        for (pointer, message) in [("fields", "'--get' takes a JSON Pointer, which starts with '/'"),
                                   ("/a~2", "'~' is written ~0 in a JSON Pointer")] {
            let bad = try formd(["call", "focusNext", "--get", pointer])
            XCTAssertEqual(bad.status, 2)
            XCTAssertTrue(bad.stderr.contains(message), bad.stderr)
        }
    }
}
