import Foundation
import FormdCore
import FormdJSON
@testable import FormdStore
import XCTest

/// A secure field's text stays out of the state files unless `persistSecrets` says otherwise.
final class SecretTests: XCTestCase {
    static let form = #"{"id":1,"method":"defineForm","params":{"presets":{"vault":{"secure":true,"text":"preset-S3kr1t-2"}},"fields":[{"id":"user","text":"ada"},{"id":"pw","configuration":["password"],"text":"initial-S3kr1t-1"},{"id":"v","configuration":["vault"]},{"id":"empty","secure":true},{"id":"later"}]}}"#

    /// Every byte of every file in `dir`, for grepping.
    func everything(in dir: String) throws -> String {
        try FileManager.default.contentsOfDirectory(atPath: dir).sorted().map { name in
            String(decoding: try readBytes(dir + "/" + name), as: UTF8.self)
        }.joined(separator: "\n")
    }

    func testSecureTextsAreNeverWrittenAndComeBackEmptyAndFlagged() throws {
        let dir = try temporaryDirectory(self)
        var s = try StoredSession(StoreOptions(path: dir))
        s.send(Self.form)
        s.send(#"{"id":2,"method":"demandFocus","params":{"field":"pw","demand":"become"}}"#)
        s.send(#"{"id":3,"method":"insertText","params":{"text":"-typed-S3kr1t-3"}}"#)
        s.send(#"{"id":4,"method":"setRevealed","params":{"field":"pw","revealed":true}}"#)
        s.send(#"{"id":5,"method":"insertText","params":{"text":"!"}}"#)
        s.send(#"{"id":6,"method":"setText","params":{"field":"later","text":"plain-S3kr1t-4"}}"#)
        XCTAssertTrue(try everything(in: dir).contains("plain-S3kr1t-4"), "not a secret yet")
        s.send(#"{"id":7,"method":"setSecure","params":{"field":"later","secure":true}}"#)
        XCTAssertEqual(s.engine.forms["default"]?.fields[1].text, "initial-S3kr1t-1-typed-S3kr1t-3!")
        XCTAssertFalse(try everything(in: dir).contains("S3kr1t"), "a secret reached the state files")
        s.close()

        let r = try StateStore.open(StoreOptions(path: dir), initial: FormEngine())
        XCTAssertFalse(try everything(in: dir).contains("S3kr1t"))
        let fields = r.engine.forms["default"]!.snapshot(includeSecrets: true).fields
        XCTAssertEqual(fields.map(\.id), ["user", "pw", "v", "empty", "later"])
        XCTAssertEqual(fields.map(\.text), ["ada", "", "", "", ""])
        XCTAssertEqual(fields.map(\.restoredWithoutSecret), [false, true, true, false, true])
        XCTAssertEqual(fields[1].isFirstResponder, true, "focus is not a secret")
        XCTAssertEqual(fields[1].attributes.revealed, true)
        r.store.close()
    }

    func testTypingIntoARestoredSecureFieldClearsTheFlag() throws {
        let dir = try temporaryDirectory(self)
        var s = try StoredSession(StoreOptions(path: dir))
        s.send(Self.form)
        s.close()
        var r = try StoredSession(StoreOptions(path: dir))
        XCTAssertEqual(r.engine.forms["default"]?.fields[1].restoredWithoutSecret, true)
        let state = r.send(#"{"id":1,"method":"getState"}"#)
        XCTAssertTrue(state.contains(#""restoredWithoutSecret":true"#), state)
        r.send(#"{"id":2,"method":"setText","params":{"field":"pw","text":"new-S3kr1t-5"}}"#)
        XCTAssertEqual(r.engine.forms["default"]?.fields[1].restoredWithoutSecret, false)
        r.close()
        let again = try StateStore.open(StoreOptions(path: dir), initial: FormEngine())
        // Dropped again (it is a secret), so flagged again; the other field was never typed.
        XCTAssertEqual(again.engine.forms["default"]?.fields[1].restoredWithoutSecret, true)
        XCTAssertFalse(try everything(in: dir).contains("S3kr1t"))
        again.store.close()
    }

    func testPersistSecretsKeepsThemInOwnerOnlyFiles() throws {
        let dir = try temporaryDirectory(self)
        var s = try StoredSession(StoreOptions(path: dir, persistSecrets: true))
        s.send(Self.form)
        s.send(#"{"id":2,"method":"insertText","params":{"field":"pw","text":"-typed-S3kr1t-3"}}"#)
        let before = states(s.engine)
        s.close()
        XCTAssertTrue(try everything(in: dir).contains("typed-S3kr1t-3"))
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
            var st = stat()
            XCTAssertEqual(stat(dir + "/" + name, &st), 0)
            XCTAssertEqual(st.st_mode & 0o777, 0o600, name)
        }
        let r = try StateStore.open(StoreOptions(path: dir, persistSecrets: true), initial: FormEngine())
        XCTAssertEqual(states(r.engine), before)
        XCTAssertEqual(r.engine.forms["default"]?.fields[1].text, "initial-S3kr1t-1-typed-S3kr1t-3")
        r.store.close()
        // Started again without the flag: the secrets are read once, then rewritten away.
        let w = try StateStore.open(StoreOptions(path: dir), initial: FormEngine())
        XCTAssertFalse(try everything(in: dir).contains("S3kr1t"))
        w.store.close()
    }
}
