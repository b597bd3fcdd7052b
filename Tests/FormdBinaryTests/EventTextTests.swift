import Foundation
import XCTest

/// The engine leaves the text out of `textChanged` while nothing reads it
/// (`FormEngine.setEventTexts`): a client that syncs in full must still get the whole
/// text and display in every `textChanged`, whoever sent the command and whatever the
/// other clients chose, also right after it switched from incremental to full.
final class EventTextTests: XCTestCase {
    /// Typed one by one at the end of the field, so the test knows every text.
    private static let pieces = ["é", "日本", "👍🏽", "e\u{301}", "x", "Ωmega ", "ß"]

    /// Stdio: `textSync` switches between full and incremental, alone and inside batches,
    /// over a file read in bursts; each `textChanged` carries the text exactly while the
    /// client syncs in full.
    func testStdioTextChangedCarriesTheTextExactlyWhileTheClientSyncsInFull() throws {
        func initialize(_ full: Bool, id: Int?) -> String {
            let sync = full ? "full" : "incremental"
            return id.map { #"{"id":"i\#($0)","method":"initialize","params":{"textSync":"\#(sync)"}}"# }
                ?? #"{"method":"initialize","params":{"textSync":"\#(sync)"}}"#
        }
        var lines = [#"{"id":0,"method":"defineForm","params":{"fields":[{"id":"a"},{"id":"pw","secure":true}]}}"#]
        // What each textChanged must carry, in order: the field's text, or nil.
        var expected: [String?] = []
        var full = true, text = ""
        func type(_ n: Int) -> String {
            let piece = Self.pieces[n % Self.pieces.count]
            text += piece
            expected.append(full ? text : nil)
            return #"{"id":\#(n),"method":"insertText","params":{"field":"a","text":"\#(piece)"}}"#
        }
        for n in 1..<3000 {
            switch n % 97 {
            case 5, 50:
                full.toggle()
                lines.append(initialize(full, id: n))
            case 30:
                // A batch switching twice: each command sees the setting before it.
                var items = [type(n)]
                full.toggle()
                items.append(initialize(full, id: nil))
                items.append(type(n + 100_000))
                full.toggle()
                items.append(initialize(full, id: n))
                items.append(type(n + 200_000))
                lines.append("[" + items.joined(separator: ",") + "]")
            case 70:
                // A masked field's textChanged never carries its text.
                lines.append(#"{"id":\#(n),"method":"insertText","params":{"field":"pw","text":"s"}}"#)
                expected.append(nil)
            case _ where n % 20 == 0 && !text.isEmpty:
                // Kept short: the whole text goes out with every full textChanged.
                text = ""
                expected.append(full ? "" : nil)
                lines.append(#"{"id":\#(n),"method":"setText","params":{"field":"a","text":""}}"#)
            default:
                lines.append(type(n))
            }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("formd-event-texts-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let (process, stdout) = try FormdProcess.start(stdinFile: file)
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)

        let events = String(decoding: out, as: UTF8.self).split(separator: "\n").compactMap { line -> [String: Any]? in
            guard let m = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  m["method"] as? String == "textChanged" else { return nil }
            return m["params"] as? [String: Any]
        }
        XCTAssertEqual(events.count, expected.count)
        var withText = 0
        for (i, (params, want)) in zip(events, expected).enumerated() {
            XCTAssertEqual(params["text"] as? String, want, "textChanged #\(i)")
            if let want {
                XCTAssertEqual(params["display"] as? String, want, "textChanged #\(i)")
                withText += 1
            } else if params["field"] as? String == "a" {
                XCTAssertNil(params["display"], "textChanged #\(i): incremental")
            }
        }
        XCTAssertGreaterThan(withText, 1000)
        XCTAssertGreaterThan(expected.count - withText, 1000)
    }

    /// `--listen`: a client syncing in full gets the text of every edit, whoever typed it;
    /// once every client syncs incrementally nobody gets it; a client switching back to
    /// full, or just connected, gets it at once; and a client counting in another encoding
    /// gets its positions right (recounted through the text) when all sync incrementally.
    func testListenFullClientsGetTheTextWhateverTheOthersChose() throws {
        let daemon = try ListenDaemon()
        let full = try SocketClient(daemon.socket, name: "full")
        let inc = try SocketClient(daemon.socket, name: "incremental")
        let inc2 = try SocketClient(daemon.socket, name: "incremental 2")
        XCTAssertNotNil(full.call("initialize", ["textSync": "full"])["result"])
        for c in [inc, inc2] { XCTAssertNotNil(c.call("initialize", ["textSync": "incremental"])["result"]) }
        XCTAssertNotNil(full.call("defineForm", ["fields": [["id": "a"]]])["result"])
        for c in [inc, inc2] { XCTAssertNotNil(c.call("getState")["result"]) }
        var seq = 1, text = ""

        /// `typist` types `piece`; each client gets its textChanged with the text or
        /// without, the selection after it counted in UTF-16 units or characters.
        func type(_ typist: LineClient, _ piece: String, texts: [(LineClient, Bool)], utf16: LineClient? = nil,
                  _ note: String, line: UInt = #line) {
            let before = text
            text += piece
            seq += 1
            XCTAssertNotNil(typist.call("insertText", ["field": "a", "text": piece])["result"], line: line)
            for (client, withText) in texts {
                client.readEvents(throughSeq: seq, line: line)
                guard let event = client.events.last, event["method"] as? String == "textChanged",
                      let params = event["params"] as? [String: Any], params["seq"] as? Int == seq else {
                    return XCTFail("\(client.name): no textChanged \(seq) (\(note))", line: line)
                }
                XCTAssertEqual(params["text"] as? String, withText ? text : nil, "\(client.name), \(note)", line: line)
                XCTAssertEqual(params["display"] as? String, withText ? text : nil, "\(client.name), \(note)", line: line)
                let units = client === utf16 ? (before.utf16.count, text.utf16.count) : (before.count, text.count)
                XCTAssertEqual((params["edit"] as? [String: Any])?["start"] as? Int, units.0, "\(client.name), \(note)", line: line)
                XCTAssertEqual((params["selection"] as? [String: Any])?["end"] as? Int, units.1, "\(client.name), \(note)", line: line)
            }
        }
        let everyone = [full, inc, inc2]
        for (i, piece) in Self.pieces.enumerated() {
            type(everyone[i % 3], piece, texts: [(full, true), (inc, false), (inc2, false)], "one client in full")
        }
        XCTAssertNotNil(full.call("initialize", ["textSync": "incremental"])["result"])
        for (i, piece) in Self.pieces.enumerated() {
            type(everyone[i % 3], piece, texts: [(full, false), (inc, false), (inc2, false)], "all incremental")
        }
        // Switching back: the very next edit, by another client, carries the text to it.
        XCTAssertNotNil(inc2.call("initialize", ["textSync": "full"])["result"])
        type(inc, "ü", texts: [(full, false), (inc, false), (inc2, true)], "switched back, another typed")
        type(inc2, "日", texts: [(full, false), (inc, false), (inc2, true)], "switched back, it typed")
        XCTAssertNotNil(inc2.call("initialize", ["textSync": "incremental"])["result"])
        // A client that just connected syncs in full until it says otherwise.
        let late = try SocketClient(daemon.socket, name: "late")
        XCTAssertNotNil(late.call("getState")["result"])
        type(full, "z", texts: [(late, true), (inc2, false), (inc, false)], "a client joined")
        XCTAssertNotNil(late.call("initialize", ["textSync": "incremental", "positionEncoding": "utf-16"])["result"])
        // Every client incremental, one counting UTF-16: its positions are recounted right.
        for (i, piece) in Self.pieces.enumerated() {
            type(everyone[i % 3], piece, texts: [(late, false), (full, false), (inc, false)], utf16: late, "recounted")
        }
        type(late, "👍🏽", texts: [(late, false), (full, false), (inc, false)], utf16: late, "recounted, it typed")
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
    }
}
