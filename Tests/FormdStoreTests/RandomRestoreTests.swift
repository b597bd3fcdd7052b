import FormdTestSupport
import Foundation
import FormdCore
import FormdJSON
import FormdServer
@testable import FormdStore
import XCTest

/// Random sessions: whatever the commands did, a restart restores it, and the restored
/// daemon answers every later command byte for byte as the one that never stopped.
final class RandomRestoreTests: XCTestCase {
    static let define = #"{"method":"defineForm","params":{"presets":{"pin":{"maxLength":4,"inputFilter":"[0-9]","autoAdvance":true}},"fields":[{"id":"a","returnAction":"next"},{"id":"b","configuration":["pin"]},{"id":"c","configuration":["password"],"deleteOnEmpty":"focusPrevious"},{"id":"d","enabled":false,"required":true,"minLength":2},{"id":"e","clearsOnBeginEditing":true,"text":"start"}]}}"#
    static let texts = ["a", "hello world", "é", "e\u{301}", "👩‍👩‍👧", "🇫🇷🇩🇪", "1234", "12", "x y z", "", "line\nbreak", "\u{0}\t\"q\""]

    struct Generator {
        var rng: SplitMix64
        var fields = ["a", "b", "c", "d", "e"]
        var added = 0

        mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
        mutating func field() -> String { fields.isEmpty ? "a" : pick(fields) }
        mutating func optionalField() -> String { Int.random(in: 0..<4, using: &rng) > 0 ? #""field":"\#(field())""# : "" }
        /// An object from members, leaving out empty ones.
        func object(_ members: String...) -> String { "{" + members.filter { !$0.isEmpty }.joined(separator: ",") + "}" }

        mutating func line(id: Int, undo: Bool) -> String {
            let text = jsonString(pick(RandomRestoreTests.texts))
            let f = field()
            let form = Int.random(in: 0..<12, using: &rng) == 0 ? #""form":"other""# : ""
            let params: String
            let method: String
            switch Int.random(in: 0..<(undo ? 23 : 21), using: &rng) {
            case 0, 1: method = "setText"; params = object(form, #""field":"\#(f)","text":\#(text)"#)
            case 2, 3: method = "insertText"; params = object(form, optionalField(), #""text":\#(text)"#)
            case 4: method = "delete"; params = object(form, optionalField(), #""unit":"\#(pick(["character", "word", "line"]))","direction":"\#(pick(["backward", "forward"]))""#)
            case 5: method = "select"; params = object(form, #""field":"\#(f)","start":\#(Int.random(in: 0..<4, using: &rng)),"end":\#(Int.random(in: 0..<6, using: &rng))"#)
            case 6: method = "moveCaret"; params = object(form, optionalField(), #""to":"\#(pick(["start", "end", "left", "right", "wordLeft", "wordRight"]))","extend":\#(Bool.random(using: &rng))"#)
            case 7, 8: method = "demandFocus"; params = object(form, #""field":"\#(f)","demand":"\#(pick(["become", "become", "resign"]))""#)
            case 9: method = pick(["focusNext", "focusPrevious"]); params = object(form)
            case 10: method = "setEnabled"; params = object(form, #""field":"\#(f)","enabled":\#(Bool.random(using: &rng))"#)
            case 11: method = "setSecure"; params = object(form, #""field":"\#(f)","secure":\#(Bool.random(using: &rng))"#)
            case 12: method = "setRevealed"; params = object(form, #""field":"\#(f)","revealed":\#(Bool.random(using: &rng))"#)
            case 13: method = "pressReturn"; params = object(form, optionalField())
            case 14: method = "configureField"; params = object(form, #""field":"\#(f)","label":\#(text),"maxLength":\#(pick(["null", "3", "20"])),"hints":{"n":\#(Int.random(in: 0..<9, using: &rng))}"#)
            case 15: method = "editAction"; params = object(form, optionalField(), #""action":"\#(pick(["cut", "copy", "selectAll", "delete"]))""#)
            case 16: method = "editAction"; params = object(form, optionalField(), #""action":"paste","text":\#(text)"#)
            case 17:
                added += 1
                let id = "n\(added)"
                if form.isEmpty { fields.append(id) }
                method = "addField"; params = object(form, #""field":{"id":"\#(id)","configuration":["\#(pick(["email", "password", "pin", "autoclears"]))"]},"after":"\#(f)""#)
            case 18:
                if form.isEmpty { fields.removeAll { $0 == f } }
                method = "removeField"; params = object(form, #""field":"\#(f)""#)
            case 19: method = pick(["submit", "reset", "validate", "getState"]); params = object(form)
            case 20:
                if form.isEmpty { fields = ["a", "b", "c", "d", "e"] }
                return RandomRestoreTests.define.replacingOccurrences(of: #""params":{"#, with: #""id":\#(id),"params":{\#(form.isEmpty ? "" : form + ",")"#)
            default: method = pick(["undo", "redo"]); params = object(form, optionalField())
            }
            return #"{"id":\#(id),"method":"\#(method)","params":\#(params)}"#
        }
    }

    func run(seed: UInt64, persistSecrets: Bool) throws {
        let dir = try temporaryDirectory(self)
        let options = StoreOptions(path: dir, fsync: .never, persistSecrets: persistSecrets, compactAfterBytes: 2048)
        var live = try StoredSession(options)
        var g = Generator(rng: SplitMix64(seed: seed))
        live.send(Self.define.replacingOccurrences(of: #""method""#, with: #""id":0,"method""#))
        live.send(Self.define.replacingOccurrences(of: #""params":{"#, with: #""id":0,"params":{"form":"other","#))
        var trace: [String] = []
        for i in 1...120 {
            let line = g.line(id: i, undo: true)
            trace.append(line)
            let out = live.send(line)
            if ProcessInfo.processInfo.environment["STORE_DEBUG"] != nil { print("IN  \(line)\nOUT \(out)") }
        }
        live.close()
        let opened = try StateStore.open(options, initial: FormEngine())
        defer { opened.store.close() }
        let restored = states(opened.engine)
        let expected = states(live.engine)
        if persistSecrets {
            XCTAssertEqual(restored, expected, "seed \(seed), after:\n\(trace.joined(separator: "\n"))")
        } else {
            for (name, form) in expected {
                for (i, f) in form.fields.enumerated() {
                    let r = restored[name]!.fields[i]
                    if f.attributes.secure {
                        XCTAssertEqual(r.text, "", "seed \(seed)")
                    } else {
                        XCTAssertEqual(r, f, "seed \(seed)")
                    }
                }
            }
            return
        }
        // Both go on with the same commands (no undo: its history is not kept).
        var restoredSession = Session(engine: opened.engine)
        restoredSession.observer = opened.store
        var liveSession = live.session
        liveSession.observer = nil
        for i in 121...200 {
            let line = g.line(id: i, undo: false)
            var a = JSONWriter(), b = JSONWriter()
            var l = line
            l.withUTF8 { liveSession.handleLine(UnsafeRawBufferPointer($0), into: &a) }
            l.withUTF8 { restoredSession.handleLine(UnsafeRawBufferPointer($0), into: &b) }
            XCTAssertTrue(opened.store.commit(engine: restoredSession.engine))
            XCTAssertEqual(String(decoding: b.bytes, as: UTF8.self), String(decoding: a.bytes, as: UTF8.self), "seed \(seed): \(line)")
            if a.bytes != b.bytes { return }
        }
    }

    func testRandomSessionsRestoreExactly() throws {
        for seed: UInt64 in 1...25 { try run(seed: seed, persistSecrets: true) }
    }

    func testRandomSessionsWithoutSecretsRestoreAllButSecureTexts() throws {
        for seed: UInt64 in 100...110 { try run(seed: seed, persistSecrets: false) }
    }
}
