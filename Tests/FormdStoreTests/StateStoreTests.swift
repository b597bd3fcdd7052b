import Foundation
import FormdCore
import FormdJSON
@testable import FormdStore
import XCTest

/// The state directory: what it restores, what it refuses, what it never holds.
final class StateStoreTests: XCTestCase {
    static let form = #"{"id":1,"method":"defineForm","params":{"fields":[{"id":"name"},{"id":"email","configuration":["email"]},{"id":"pin","enabled":false},{"id":"pw","configuration":["password"]}]}}"#

    func testRestoresTextsSelectionFocusAndPendingDemand() throws {
        let dir = try temporaryDirectory(self)
        var s = try StoredSession(StoreOptions(path: dir, persistSecrets: true))
        s.send(Self.form)
        s.send(#"{"id":2,"method":"setText","params":{"field":"name","text":"Ada Lovelace 👩‍💻"}}"#)
        s.send(#"{"id":3,"method":"select","params":{"field":"name","start":4,"end":13}}"#)
        s.send(#"{"id":4,"method":"demandFocus","params":{"field":"email","demand":"become"}}"#)
        s.send(#"{"id":5,"method":"insertText","params":{"text":"ada@example.com"}}"#)
        s.send(#"{"id":6,"method":"demandFocus","params":{"field":"pin","demand":"become"}}"#)
        s.send(#"{"id":7,"method":"setText","params":{"field":"pw","text":"correct horse"}}"#)
        s.send(#"{"id":8,"method":"defineForm","params":{"form":"second","fields":[{"id":"x","text":"initial"}],"presets":{"mine":{"label":"Mine"}}}}"#)
        s.send(#"{"id":9,"method":"configureField","params":{"form":"second","field":"x","configuration":["mine"]}}"#)
        let before = states(s.engine)
        XCTAssertEqual(before["default"]?.fields[2].demand, .become)
        s.close()

        var r = try StoredSession(StoreOptions(path: dir, persistSecrets: true))
        XCTAssertEqual(states(r.engine), before)
        // The pending demand is live: enabling the field fulfils it.
        let out = r.send(#"{"id":10,"method":"setEnabled","params":{"field":"pin","enabled":true}}"#)
        XCTAssertTrue(out.contains(#""outcome":"fulfilled""#), out)
        XCTAssertEqual(r.engine.forms["default"]?.firstResponderID, "pin")
        // The seq goes on from where it was.
        XCTAssertTrue(out.contains(#""seq":\#(before["default"]!.seq + 1),"#), out)
    }

    func testFirstStartUsesTheInitialEngineAndLaterStartsIgnoreIt() throws {
        let dir = try temporaryDirectory(self)
        var initial = FormEngine()
        _ = try initial.perform(.defineForm(fields: [FieldSpec(id: "from-file")], presets: [:]))
        var s = try StoredSession(StoreOptions(path: dir), initial: initial)
        XCTAssertEqual(s.engine.forms["default"]?.fields.map(\.id), ["from-file"])
        s.send(#"{"id":1,"method":"setText","params":{"field":"from-file","text":"typed"}}"#)
        s.close()
        let r = try StateStore.open(StoreOptions(path: dir), initial: FormEngine())
        XCTAssertTrue(r.restored)
        XCTAssertEqual(r.engine.forms["default"]?.fields.first?.text, "typed")
    }

    /// Cutting the journal at any byte restores the state after the last whole record
    /// before the cut: never a part of a command, and the damage is reported unless the
    /// cut falls between records.
    func testATornJournalTailIsDroppedAtEveryByteOffset() throws {
        let dir = try temporaryDirectory(self)
        var s = try StoredSession(StoreOptions(path: dir, persistSecrets: true))
        s.send(Self.form)
        s.send(#"{"id":2,"method":"setText","params":{"field":"name","text":"Grace"}}"#)
        let snapshot = try readBytes(dir + "/snapshot")
        var boundaries = [(length: try readBytes(dir + "/journal").count, state: states(s.engine))]
        for line in [
            #"{"id":3,"method":"demandFocus","params":{"field":"name","demand":"become"}}"#,
            // Focus moves on: two fields and the responder change in one command.
            #"{"id":4,"method":"pressReturn"}"#,
            #"{"id":5,"method":"setText","params":{"field":"email","text":"g@h.io ✂︎ é"}}"#,
            #"{"id":6,"method":"demandFocus","params":{"field":"pin","demand":"become"}}"#,
            #"{"id":7,"method":"select","params":{"field":"email","start":1,"end":4}}"#,
        ] {
            s.send(line)
            boundaries.append((try readBytes(dir + "/journal").count, states(s.engine)))
        }
        let full = try readBytes(dir + "/journal")
        s.close()
        XCTAssertEqual(boundaries.last?.length, full.count)
        for cut in boundaries[0].length...full.count {
            let r = try StateStore.recover(snapshot: snapshot, journal: Array(full[..<cut]), initial: FormEngine())
            let last = boundaries.lastIndex { $0.length <= cut }!
            XCTAssertEqual(states(r.engine), boundaries[last].state, "cut at \(cut)")
            XCTAssertEqual(r.records, last + 2, "cut at \(cut): defineForm and setText, then one per command")
            XCTAssertEqual(r.notes.isEmpty, boundaries[last].length == cut, "cut at \(cut): \(r.notes)")
        }
    }

    /// A journal that ends cleanly is appended to at the next start, without writing
    /// anything first; a change of `persistSecrets` compacts instead.
    func testACleanJournalIsContinuedWithoutACompaction() throws {
        let dir = try temporaryDirectory(self)
        var s = try StoredSession(StoreOptions(path: dir))
        XCTAssertEqual(s.store.compactions, 1, "the first start writes the files")
        s.send(Self.form)
        s.close()
        let journal = try readBytes(dir + "/journal")
        var t = try StoredSession(StoreOptions(path: dir))
        XCTAssertEqual(t.store.compactions, 0)
        XCTAssertEqual(try readBytes(dir + "/journal"), journal)
        t.send(#"{"id":2,"method":"setText","params":{"field":"name","text":"appended"}}"#)
        t.close()
        XCTAssertEqual(Array(try readBytes(dir + "/journal").prefix(journal.count)), journal)
        let u = try StoredSession(StoreOptions(path: dir, persistSecrets: true))
        XCTAssertEqual(u.engine.forms["default"]?.fields.first?.text, "appended")
        XCTAssertEqual(u.store.compactions, 1, "the files must say they may hold secrets now")
        u.close()
        let v = try StoredSession(StoreOptions(path: dir, persistSecrets: true))
        XCTAssertEqual(v.store.compactions, 0)
        v.close()
    }

    func testTheDroppedTailIsReportedAndTruncatedAtTheNextStart() throws {
        let dir = try temporaryDirectory(self)
        var s = try StoredSession(StoreOptions(path: dir))
        s.send(Self.form)
        s.send(#"{"id":2,"method":"setText","params":{"field":"name","text":"kept"}}"#)
        s.close()
        let journal = try readBytes(dir + "/journal")
        try writeBytes(journal + Array(#"0badf00d {"t":"fields","form":"default"#.utf8), to: dir + "/journal")
        let opened = try StateStore.open(StoreOptions(path: dir), initial: FormEngine())
        XCTAssertEqual(opened.engine.forms["default"]?.fields.first?.text, "kept")
        XCTAssertEqual(opened.notes.count, 1)
        XCTAssertTrue(opened.notes[0].contains("dropped"), opened.notes[0])
        opened.store.close()
        // Compacted at start: the damage is gone and the next start is quiet.
        let again = try StateStore.open(StoreOptions(path: dir), initial: FormEngine())
        XCTAssertEqual(again.notes, [])
        XCTAssertEqual(again.engine.forms["default"]?.fields.first?.text, "kept")
    }

    func testACorruptSnapshotIsRefusedAndLeftAsItWas() throws {
        let dir = try temporaryDirectory(self)
        var s = try StoredSession(StoreOptions(path: dir))
        s.send(Self.form)
        try s.store.compact(s.engine)
        s.send(#"{"id":2,"method":"setText","params":{"field":"name","text":"in the journal"}}"#)
        s.close()
        let snapshot = try readBytes(dir + "/snapshot")
        let journal = try readBytes(dir + "/journal")
        for damage in [{ (b: inout [UInt8]) in b[b.count / 2] ^= 0x04 }, { $0.removeLast(5) }, { $0.removeAll() },
                       { $0 = Array($0[..<($0.lastIndex(of: UInt8(ascii: "\n"), before: $0.count - 1)! + 1)]) }] {
            var bad = snapshot
            damage(&bad)
            try writeBytes(bad, to: dir + "/snapshot")
            XCTAssertThrowsError(try StateStore.open(StoreOptions(path: dir), initial: FormEngine())) { error in
                XCTAssertTrue("\(error)".contains("corrupt"), "\(error)")
                XCTAssertTrue("\(error)".contains("refusing to start"), "\(error)")
            }
            XCTAssertEqual(try readBytes(dir + "/snapshot"), bad, "the damaged snapshot is left for a person to look at")
            XCTAssertEqual(try readBytes(dir + "/journal"), journal)
        }
    }

    func testJournalsThatDoNotContinueTheSnapshot() throws {
        let dir = try temporaryDirectory(self)
        var s = try StoredSession(StoreOptions(path: dir))
        s.send(Self.form)
        s.send(#"{"id":2,"method":"setText","params":{"field":"name","text":"later"}}"#)
        let snapshot1 = try readBytes(dir + "/snapshot")
        let journal1 = try readBytes(dir + "/journal")
        try s.store.compact(s.engine)
        s.send(#"{"id":3,"method":"setText","params":{"field":"email","text":"latest"}}"#)
        let snapshot2 = try readBytes(dir + "/snapshot")
        let journal2 = try readBytes(dir + "/journal")
        s.close()
        XCTAssertEqual(try StateStore.recover(snapshot: snapshot2, journal: journal2, initial: FormEngine()).records, 1)
        // A crash between a compaction's two renames: new snapshot, older journal, ignored.
        let stale = try StateStore.recover(snapshot: snapshot2, journal: journal1, initial: FormEngine())
        XCTAssertEqual(stale.engine.forms["default"]?.fields.first?.text, "later")
        XCTAssertEqual(stale.records, 0)
        XCTAssertEqual(stale.notes, [])
        // A journal newer than its snapshot, or one without any, is refused.
        XCTAssertThrowsError(try StateStore.recover(snapshot: snapshot1, journal: journal2, initial: FormEngine()))
        XCTAssertThrowsError(try StateStore.recover(snapshot: nil, journal: journal2, initial: FormEngine()))
        // A journal whose header is damaged is refused rather than guessed at.
        var badHeader = journal2
        badHeader[3] ^= 1
        XCTAssertThrowsError(try StateStore.recover(snapshot: snapshot2, journal: badHeader, initial: FormEngine()))
    }

    func testCompactionRoundTrip() throws {
        let dir = try temporaryDirectory(self)
        var s = try StoredSession(StoreOptions(path: dir, fsync: .never, persistSecrets: true, compactAfterBytes: 4096))
        s.send(Self.form)
        for i in 0..<300 {
            let field = ["name", "email", "pw"][i % 3]
            s.send(#"{"id":\#(i),"method":"insertText","params":{"field":"\#(field)","text":"\#(i) "}}"#)
            if i % 7 == 0 { s.send(#"{"id":\#(i),"method":"demandFocus","params":{"field":"\#(field)","demand":"become"}}"#) }
        }
        XCTAssertGreaterThan(s.store.compactions, 5)
        XCTAssertLessThan(s.store.journalBytes, 4096 + 1024)
        let before = states(s.engine)
        s.close()
        // What the files hold, read back and written out again, is the same state.
        let opened = try StateStore.open(StoreOptions(path: dir, persistSecrets: true), initial: FormEngine())
        XCTAssertEqual(states(opened.engine), before)
        try opened.store.compact(opened.engine)
        let snapshot = try readBytes(dir + "/snapshot")
        let decoded = try StateStore.decodeSnapshot(snapshot, maxDepth: 64)
        XCTAssertEqual(decoded.generation, opened.store.generation)
        XCTAssertEqual(opened.store.encodeSnapshot(opened.engine, generation: decoded.generation), snapshot)
    }

    func testFilesAreOwnerOnlyAndASecondDaemonIsLockedOut() throws {
        let dir = try temporaryDirectory(self) + "/state"
        let s = try StoredSession(StoreOptions(path: dir))
        var st = stat()
        XCTAssertEqual(stat(dir, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o700)
        for name in ["snapshot", "journal", "lock"] {
            XCTAssertEqual(stat(dir + "/" + name, &st), 0, name)
            XCTAssertEqual(st.st_mode & 0o777, 0o600, name)
        }
        XCTAssertThrowsError(try StateStore.open(StoreOptions(path: dir), initial: FormEngine())) { error in
            XCTAssertTrue("\(error)".contains("in use"), "\(error)")
        }
        s.close()
        XCTAssertNoThrow(try StateStore.open(StoreOptions(path: dir), initial: FormEngine()).store.close())
    }

    func testFieldOptionsCodecCoversEveryKey() throws {
        XCTAssertEqual(Mirror(reflecting: FieldOptions()).children.count, StateCodec.optionKeys.count,
                       "a FieldOptions key is missing from StateCodec: it would not survive a restart")
        var o = FieldOptions()
        o.label = .some(nil); o.placeholder = "p"; o.text = "t"; o.secure = true; o.revealed = false; o.enabled = false
        o.returnAction = .submit; o.deleteOnEmpty = .focusPrevious; o.canBecomeFirstResponder = false
        o.canResignFirstResponder = true; o.enablesReturnKeyAutomatically = true; o.clearsOnBeginEditing = true
        o.required = true; o.minLength = .some(nil); o.maxLength = 9; o.pattern = .some(try FieldPattern("[a-z]+"))
        o.patternHint = "Lower-case letters."
        o.inputFilter = .some(nil); o.autoAdvance = true; o.supportedEditActions = [.paste, .delete]
        o.hints = ["k": #"{"nested":[1,"two"]}"#]
        let encoded = StateCodec.encode(o)
        XCTAssertEqual(encoded.members.count, StateCodec.optionKeys.count)
        XCTAssertEqual(try StateCodec.decodeOptions(encoded, path: "o"), o)
        XCTAssertEqual(try StateCodec.decodeOptions(StateCodec.encode(FieldOptions()), path: "o"), FieldOptions())
        XCTAssertThrowsError(try StateCodec.decodeOptions(JSONObject([JSONMember(key: "bogus", value: true)]), path: "o"))
    }
}

private extension Array where Element == UInt8 {
    func lastIndex(of byte: UInt8, before end: Int) -> Int? { self[..<end].lastIndex(of: byte) }
}
