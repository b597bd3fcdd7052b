import Foundation
import XCTest

/// Checks of the 2026-12-02 morning performance round, run on the real binary: `textChanged`
/// leaves its text out while nothing reads it (`FormEngine.setEventTexts`), keystrokes take
/// the engine's in-place path (`FormCommand.rebuildsFields`), the undo log's records were
/// laid out anew. Each session is checked against what the protocol says the output is,
/// worked out without the daemon: a text model of every field, and the same session with the
/// text read (in full) next to the same session without it (incremental).
final class Round1202MorningReviewTests: XCTestCase {
    /// A small deterministic generator, so a failure names a reproducible session.
    private struct Generator {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }
    }

    private static let pieces = ["a", "é", "e\u{301}", "\u{301}", "日本", "👍🏽", "👨‍👩‍👧", "ab cd", "Ωx", "ß", "line\nnext", ""]
    private static let fields = ["a", "b", "pw", "nope"]
    private static let forms = ["default", "g", "missing"]

    /// One random request (an object, no newline): edits, moves, undo and redo on two forms
    /// and a field or form that does not exist, so that errors are in the mix too.
    private static func request(_ g: inout Generator, id: Int) -> String {
        var p: [String: Any] = [:]
        p["form"] = g.pick(forms + ["default", "default", "g"])
        p["field"] = g.pick(fields + ["a", "a", "b"])
        let method: String
        switch g.next(16) {
        case 0, 1, 2, 3: method = "insertText"; p["text"] = g.pick(pieces)
        case 4, 5:
            method = "delete"
            p["direction"] = g.pick(["backward", "forward"])
            p["unit"] = g.pick(["character", "character", "word", "line"])
        case 6: method = "setText"; p["text"] = g.pick(pieces) + g.pick(pieces)
        case 7, 8: method = "undo"
        case 9: method = "redo"
        case 10: method = "select"; p["start"] = g.next(4); p["end"] = g.next(6)
        case 11: method = "moveCaret"; p["to"] = g.pick(["start", "end", "left", "right", "wordLeft", "wordRight"]); p["extend"] = g.next(2) == 0
        case 12:
            method = "editAction"
            let action = g.pick(["cut", "copy", "paste", "selectAll", "delete"])
            p["action"] = action
            if action == "paste" { p["text"] = g.pick(pieces) }
        case 13: method = "pressReturn"
        case 14: method = "focusNext"; p["field"] = nil
        default: method = g.next(4) == 0 ? "reset" : "getState"; p["field"] = nil
        }
        let data = try! JSONSerialization.data(withJSONObject: ["jsonrpc": "2.0", "id": id, "method": method, "params": p],
                                               options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// A session: two forms, each with plain fields and a secure one, then `count` random
    /// requests, some of them in batches, and the final state of both forms.
    private static func session(seed: UInt64, count: Int) -> [String] {
        var g = Generator(state: seed)
        var lines: [String] = []
        for form in ["default", "g"] {
            lines.append(#"{"id":"d\#(form)","method":"defineForm","params":{"form":"\#(form)","fields":[{"id":"a","text":"x\u0301y"},{"id":"b","maxLength":12},{"id":"pw","secure":true,"text":"s3"}]}}"#)
        }
        var id = 0
        while id < count {
            if g.next(10) == 0 {
                let n = 1 + g.next(5)
                lines.append("[" + (0..<n).map { i in request(&g, id: id + i) }.joined(separator: ",") + "]")
                id += n
            } else {
                lines.append(request(&g, id: id))
                id += 1
            }
        }
        for form in ["default", "g"] {
            lines.append(#"{"id":"end-\#(form)","method":"getState","params":{"form":"\#(form)","includeSecrets":true}}"#)
        }
        return lines
    }

    private static func json(_ line: String) -> Any? { try? JSONSerialization.jsonObject(with: Data(line.utf8)) }

    /// `text` with the Unicode scalars `start..<end` replaced by `inserted`: what a
    /// `textChanged` counted in UTF-32 says happened.
    private static func apply(_ text: String, _ start: Int, _ end: Int, _ inserted: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[..<start])
        out.append(contentsOf: inserted.unicodeScalars)
        out.append(contentsOf: scalars[end...])
        return String(out)
    }

    /// The same session, once syncing in full and once incrementally (UTF-32 positions), over
    /// stdio, with the default undo limits and with tight ones (`--max-undo`,
    /// `--max-undo-text`, `--max-total-text`), and with `--state`: the two outputs are the
    /// same line for line but for `text` and `display` of `textChanged`; in full, every
    /// `textChanged` of a field that is not masked carries the text the edit it reports
    /// makes of the text before it (a model of every field, seeded from the snapshots), a
    /// masked field's carries none and one bullet a character; and restarted on each state
    /// directory, formd holds exactly the state the session ended with.
    func testIncrementalSessionIsTheFullOneWithoutTextsAndTheTextsAreExact() throws {
        let tight = ["--max-undo", "2", "--max-undo-text", "600", "--max-total-text", "260"]
        for (seed, options) in [(UInt64(1), [String]()), (2, tight), (3, ["--max-undo", "1"]), (4, tight)] {
            let lines = Self.session(seed: seed, count: 1_500)
            var outputs: [[String]] = []
            var restored: [String] = []
            var ended: [String] = []
            for sync in ["full", "incremental"] {
                let dir = FileManager.default.temporaryDirectory.appendingPathComponent("formd-r1202m-\(getpid())-\(seed)-\(sync)")
                try? FileManager.default.removeItem(at: dir)
                defer { try? FileManager.default.removeItem(at: dir) }
                let initialize = #"{"id":"init","method":"initialize","params":{"textSync":"\#(sync)","positionEncoding":"utf-32"}}"#
                let args = options + ["--state", dir.path, "--persist-secrets"]
                let run = try FormdProcess.run(args, input: ([initialize] + lines).joined(separator: "\n") + "\n", timeout: 60)
                XCTAssertEqual(run.status, 0, "seed \(seed) \(sync): \(run.stderr)")
                outputs.append(run.stdoutLines)
                ended.append(run.stdoutLines.filter { $0.contains(#""id":"end-"#) }.joined(separator: "\n"))
                let again = try FormdProcess.run(["--state", dir.path, "--persist-secrets"],
                                                 input: ([initialize] + lines.suffix(2)).joined(separator: "\n") + "\n")
                XCTAssertEqual(again.status, 0)
                restored.append(again.stdoutLines.filter { $0.contains(#""id":"end-"#) }.joined(separator: "\n"))
            }
            let (full, incremental) = (outputs[0], outputs[1])
            XCTAssertEqual(full.count, incremental.count, "seed \(seed)")
            XCTAssertEqual(ended[0], restored[0], "seed \(seed): restarted after the full session")
            XCTAssertEqual(ended[1], restored[1], "seed \(seed): restarted after the incremental session")
            XCTAssertEqual(restored[0], restored[1], "seed \(seed): both sessions leave the same state")

            var model: [String: String] = [:]  // "form/field" -> text, for fields that are not masked
            var checked = 0, masked = 0, errors = 0
            for (i, (f, n)) in zip(full, incremental).enumerated() {
                if f.contains(#""id":"init""#) { continue }
                guard let fo = Self.json(f), let no = Self.json(n) else { return XCTFail("seed \(seed) line \(i): not JSON") }
                guard var fm = fo as? [String: Any], fm["method"] as? String == "textChanged",
                      var params = fm["params"] as? [String: Any] else {
                    // Everything but textChanged is the same, byte for byte.
                    XCTAssertEqual(f, n, "seed \(seed) line \(i)")
                    errors += f.contains(#""error""#) ? 1 : 0
                    if let m = fo as? [String: Any], let p = m["params"] as? [String: Any], let form = p["form"] as? String,
                       let snapshot = p["fields"] as? [[String: Any]] {
                        for field in snapshot { model["\(form)/\(field["id"] as! String)"] = field["text"] as? String }
                    }
                    continue
                }
                let key = "\(params["form"] as! String)/\(params["field"] as! String)"
                let edit = params["edit"] as! [String: Any]
                if let text = params["text"] as? String {
                    XCTAssertEqual(params["display"] as? String, text, "seed \(seed) line \(i)")
                    if let before = model[key] {
                        XCTAssertEqual(text, Self.apply(before, edit["start"] as! Int, edit["end"] as! Int, edit["text"] as! String),
                                       "seed \(seed) line \(i): \(f)")
                        checked += 1
                    }
                    model[key] = text
                } else {
                    let length = params["length"] as! Int
                    XCTAssertEqual(params["display"] as? String, String(repeating: "•", count: length), "seed \(seed) line \(i)")
                    XCTAssertTrue(key.hasSuffix("/pw"), "seed \(seed) line \(i): only the secure field is masked: \(f)")
                    masked += 1
                }
                params["text"] = nil
                params["display"] = nil
                fm["params"] = params
                XCTAssertEqual(NSDictionary(dictionary: fm), NSDictionary(dictionary: no as! [String: Any]),
                               "seed \(seed) line \(i): incremental is full without the text")
            }
            XCTAssertGreaterThan(checked, 100, "seed \(seed)")
            XCTAssertGreaterThan(masked, 5, "seed \(seed)")
            XCTAssertGreaterThan(errors, 10, "seed \(seed)")
        }
    }

    /// `--listen`: the only reader of the texts is a `formd attach` client that never names
    /// the form in a request and receives it through a `subscribe` rule alone, counting in
    /// UTF-32, while the typist syncs incrementally in UTF-16: it gets every text, exactly,
    /// with its positions recounted; once it syncs incrementally, or drops everything, or
    /// is gone in the middle of a burst, the others get what their own choices say (a
    /// client subscribed by field only, in full, gets every text of the burst).
    func testAReaderThatOnlySubscribedGetsEveryTextWhoeverLeavesMidBurst() throws {
        let daemon = try ListenDaemon()
        let typist = try SocketClient(daemon.socket, name: "typist")
        let watcher = try AttachClient(daemon.socket, name: "attached watcher")
        XCTAssertNotNil(typist.call("initialize", ["textSync": "incremental", "positionEncoding": "utf-16"])["result"])
        XCTAssertNotNil(watcher.call("initialize", ["positionEncoding": "utf-32"])["result"])
        XCTAssertNotNil(watcher.call("subscribe", ["forms": ["f"], "events": ["textChanged"]])["result"])
        XCTAssertNotNil(typist.call("defineForm", ["form": "f", "fields": [["id": "a"], ["id": "pw", "secure": true]]])["result"])
        var seq = 1, text = ""

        /// The typist types `piece` into `a`; `reader` gets its textChanged with the text
        /// (or without), positions in `units`.
        func type(_ piece: String, _ reader: LineClient, withText: Bool, units: (String) -> Int, _ note: String, line: UInt = #line) {
            let before = text
            text += piece
            seq += 1
            XCTAssertNotNil(typist.call("insertText", ["form": "f", "field": "a", "text": piece])["result"], line: line)
            reader.readEvents(throughSeq: seq, line: line)
            guard let params = reader.events.last?["params"] as? [String: Any], params["seq"] as? Int == seq,
                  reader.events.last?["method"] as? String == "textChanged" else {
                return XCTFail("\(reader.name): no textChanged \(seq) (\(note))", line: line)
            }
            XCTAssertEqual(params["text"] as? String, withText ? text : nil, "\(note)", line: line)
            XCTAssertEqual(params["display"] as? String, withText ? text : nil, "\(note)", line: line)
            XCTAssertEqual((params["edit"] as? [String: Any])?["start"] as? Int, units(before), "\(note)", line: line)
            XCTAssertEqual((params["selection"] as? [String: Any])?["end"] as? Int, units(text), "\(note)", line: line)
        }
        let scalars = { (s: String) in s.unicodeScalars.count }
        for piece in ["é", "e\u{301}", "👍🏽", "日本", "x", "👨‍👩‍👧"] {
            type(piece, watcher, withText: true, units: scalars, "subscribed only, in full")
        }
        // The typist's own events never carried the text.
        XCTAssertFalse(typist.events.contains { ($0["params"] as? [String: Any])?["text"] != nil })
        XCTAssertNotNil(watcher.call("initialize", ["textSync": "incremental"])["result"])
        for piece in ["a", "ß"] { type(piece, watcher, withText: false, units: scalars, "subscribed only, incremental") }
        XCTAssertNotNil(watcher.call("initialize", ["textSync": "full"])["result"])
        type("z", watcher, withText: true, units: scalars, "subscribed only, in full again")

        // A second reader in full, by a field rule alone; then the watcher drops everything.
        let fieldWatcher = try SocketClient(daemon.socket, name: "field watcher")
        XCTAssertNotNil(fieldWatcher.call("subscribe", ["fields": ["a"]])["result"])
        XCTAssertNotNil(watcher.call("unsubscribe", [:])["result"])
        type("q", fieldWatcher, withText: true, units: { $0.count }, "subscribed by field")
        XCTAssertNotNil(watcher.call("subscribe", ["forms": ["f"]])["result"])
        type("r", watcher, withText: true, units: scalars, "subscribed again")

        // A burst the typist does not wait on; the attached watcher goes away in its middle.
        var ids: [Int] = []
        var texts: [String] = []
        for n in 0..<120 {
            let piece = ["é", "👍🏽", "k"][n % 3]
            text += piece
            texts.append(text)
            ids.append(typist.sendRequest("insertText", ["form": "f", "field": "a", "text": piece]))
            if n == 40 { watcher.closeInput() }
        }
        for id in ids { XCTAssertNotNil(typist.response(to: id)["result"]) }
        fieldWatcher.readEvents(throughSeq: seq + 120)
        let burst = fieldWatcher.events.compactMap { $0["params"] as? [String: Any] }.filter { ($0["seq"] as? Int ?? 0) > seq }
        XCTAssertEqual(burst.map { $0["text"] as? String }, texts)
        // What the watcher got of the burst before it left: the texts, exactly, in order.
        let got = watcher.readToEnd().compactMap { $0["params"] as? [String: Any] }.filter { ($0["seq"] as? Int ?? 0) > seq }
        XCTAssertEqual(got.map { $0["text"] as? String }, Array(texts.prefix(got.count)))
        XCTAssertEqual(watcher.waitForExit(), 0)
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
    }
}
