import Foundation
import XCTest

/// `formd --state DIR` where another user could meddle: a directory others can write or
/// that someone else owns, planted links, forged files. "Another user" is uid 65534
/// (nobody): the tests chown to it, which needs root, as CI runs them.
final class StateDirectoryTests: XCTestCase {
    static let nobody: uid_t = 65534

    /// A fresh private directory (0700) holding the state directory `state`.
    func workDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("formd-statedir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    /// A state directory `DIR/state` already holding a snapshot and journal of one form.
    func populatedState() throws -> (work: String, state: String) {
        let work = try workDirectory()
        let state = work + "/state"
        let out = try run(["--state", state], [#"{"id":1,"method":"setText","params":{"field":"f","text":"x"}}"#], form: true)
        XCTAssertEqual(out.status, 0, out.stderr)
        return (work, state)
    }

    func run(_ args: [String], _ lines: [String], form: Bool = false) throws -> FormdProcess.Output {
        let define = #"{"id":0,"method":"defineForm","params":{"fields":[{"id":"f"}]}}"#
        return try FormdProcess.run(args, input: ((form ? [define] : []) + lines).map { $0 + "\n" }.joined())
    }

    func chownToNobody(_ path: String) throws {
        guard lchown(path, StateDirectoryTests.nobody, StateDirectoryTests.nobody) == 0 else {
            throw XCTSkip("cannot chown to another user (not root): \(String(cString: strerror(errno)))")
        }
    }

    func contents(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    func assertRefused(_ out: FormdProcess.Output, _ reason: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(out.status, 2, out.stderr, file: file, line: line)
        XCTAssertEqual(out.stdout, "", file: file, line: line)
        XCTAssertTrue(out.stderr.hasPrefix("formd: state "), out.stderr, file: file, line: line)
        XCTAssertTrue(out.stderr.contains(reason), out.stderr, file: file, line: line)
    }

    func testADirectoryOthersCanWriteIsRefusedAndLeftEmpty() throws {
        for (mode, who) in [(0o777 as mode_t, "its group and others"), (0o770, "its group"), (0o703, "others")] {
            let state = try workDirectory() + "/state"
            XCTAssertEqual(mkdir(state, 0o700), 0)
            XCTAssertEqual(chmod(state, mode), 0)
            let out = try run(["--state", state], [#"{"id":1,"method":"validate"}"#])
            assertRefused(out, "it is writable by \(who) (mode \(String(mode, radix: 8)))")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: state), [], "nothing written into it")
        }
    }

    func testADirectoryOfAnotherUserIsRefused() throws {
        let state = try workDirectory() + "/state"
        XCTAssertEqual(mkdir(state, 0o700), 0)
        try chownToNobody(state)
        let out = try run(["--state", state], [])
        assertRefused(out, "it belongs to uid \(StateDirectoryTests.nobody), not to you")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: state), [])
    }

    func testAForgedSnapshotOfAnotherUserIsNotLoaded() throws {
        let (_, state) = try populatedState()
        try chownToNobody(state + "/snapshot")
        let out = try run(["--state", state], [#"{"id":1,"method":"getState"}"#])
        assertRefused(out, "cannot read snapshot: it belongs to uid \(StateDirectoryTests.nobody)")
    }

    /// Moves the state's `name` aside and links it back in place (the attacker's forged
    /// file), then checks that formd, sent `request`, refuses with `reason` and leaves the
    /// link's target as it was.
    func assertLinkRefused(_ name: String, request: String, _ reason: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (work, state) = try populatedState()
        let target = work + "/attackers-" + name
        XCTAssertEqual(rename(state + "/" + name, target), 0, file: file, line: line)
        XCTAssertEqual(symlink(target, state + "/" + name), 0, file: file, line: line)
        let before = try contents(target)
        assertRefused(try run(["--state", state], [request]), reason, file: file, line: line)
        XCTAssertEqual(try contents(target), before, "nothing written to the link's target", file: file, line: line)
    }

    func testASnapshotLinkIsNotFollowed() throws {
        try assertLinkRefused("snapshot", request: #"{"id":1,"method":"getState"}"#, "cannot read snapshot: it is a symbolic link")
    }

    func testAJournalLinkIsNeitherReadNorAppendedTo() throws {
        try assertLinkRefused("journal", request: #"{"id":1,"method":"setText","params":{"field":"f","text":"secret"}}"#,
                              "cannot read journal: it is a symbolic link")
    }

    func testAJournalOfAnotherUserIsRefused() throws {
        let (_, state) = try populatedState()
        try chownToNobody(state + "/journal")
        let out = try run(["--state", state], [])
        assertRefused(out, "cannot read journal: it belongs to uid \(StateDirectoryTests.nobody)")
    }

    func testALockThatIsALinkOrNotAFileIsRefused() throws {
        let (work, state) = try populatedState()
        let target = work + "/target"
        FileManager.default.createFile(atPath: target, contents: Data("keep".utf8))
        XCTAssertEqual(unlink(state + "/lock"), 0)
        XCTAssertEqual(symlink(target, state + "/lock"), 0)
        assertRefused(try run(["--state", state], []), "cannot open lock: it is a symbolic link")
        XCTAssertEqual(try contents(target), "keep")
        XCTAssertEqual(unlink(state + "/lock"), 0)
        XCTAssertEqual(mkfifo(state + "/lock", 0o600), 0)
        assertRefused(try run(["--state", state], []), "cannot open lock: it is not a regular file")
    }

    func testASnapshotFIFOIsRefusedWithoutBlocking() throws {
        let (_, state) = try populatedState()
        XCTAssertEqual(unlink(state + "/snapshot"), 0)
        XCTAssertEqual(mkfifo(state + "/snapshot", 0o600), 0)
        assertRefused(try run(["--state", state], []), "cannot read snapshot: it is not a regular file")
    }

    /// A temporary file planted as a link while formd runs (the issue's attack, made in a
    /// directory the test can still write): the compaction removes it and creates its
    /// own file exclusively, so the link's target is never truncated or written.
    func testPlantedTemporaryLinksAreReplacedNotFollowed() throws {
        let work = try workDirectory()
        let state = work + "/state"
        let snapshotTarget = work + "/root-owned", journalTarget = work + "/other"
        FileManager.default.createFile(atPath: snapshotTarget, contents: Data("precious".utf8))
        FileManager.default.createFile(atPath: journalTarget, contents: Data("mine".utf8))
        let formd = try SpawnedFormd(["--state", state, "--persist-secrets"], environment: ["FORMD_STATE_COMPACT_BYTES": "1"])
        formd.send(#"{"id":1,"method":"defineForm","params":{"fields":[{"id":"pw","secure":true}]}}"# + "\n")
        XCTAssertNotNil(formd.readLine())
        XCTAssertEqual(symlink(snapshotTarget, state + "/snapshot.tmp"), 0)
        XCTAssertEqual(symlink(journalTarget, state + "/journal.tmp"), 0)
        // Enough records for the journal to outgrow twice the snapshot: a compaction.
        for n in 0..<20 { formd.send(#"{"id":2,"method":"setText","params":{"field":"pw","text":"hunter\#(n)"}}"# + "\n") }
        formd.closeStdin()
        XCTAssertFalse(String(decoding: formd.readToEnd(), as: UTF8.self).isEmpty)
        XCTAssertEqual(WaitStatus.exitCode(try XCTUnwrap(formd.waitForExit())), 0, formd.stderrText())
        XCTAssertEqual(try contents(snapshotTarget), "precious")
        XCTAssertEqual(try contents(journalTarget), "mine")
        var st = stat()
        XCTAssertEqual(lstat(state + "/snapshot", &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFREG)
        XCTAssertTrue(try contents(state + "/snapshot").contains("hunter"), "a compaction did run")
    }
}
