import Foundation
import XCTest

/// `formd --listen`: many clients, one engine. Every client attached to a form sees the
/// same events in the same seq order, with positions in its own encoding and text as its
/// own textSync shapes it; subscriptions narrow what a client receives.
final class ListenTests: XCTestCase {
    /// Positions count in `encoding` over the first `characters` characters of `text`.
    private func units(_ text: String, _ characters: Int, _ encoding: String) -> Int {
        let prefix = String(text.prefix(characters))
        switch encoding {
        case "utf-8": return prefix.utf8.count
        case "utf-16": return prefix.utf16.count
        case "utf-32": return prefix.unicodeScalars.count
        default: return characters
        }
    }

    /// An event without what depends on the receiver: positions, and the text and display
    /// that `textSync: incremental` leaves out.
    private func withoutPositions(_ event: [String: Any]) -> NSDictionary {
        var p = event.params
        p["selection"] = nil
        if var edit = p["edit"] as? [String: Any] {
            edit["start"] = nil
            edit["end"] = nil
            p["edit"] = edit
        }
        if event.method == "textChanged" {
            p["text"] = nil
            p["display"] = nil
        }
        if let fields = p["fields"] as? [[String: Any]] {
            p["fields"] = fields.map { f -> [String: Any] in var f = f; f["selection"] = nil; return f }
        }
        return ["method": event.method ?? "", "params": p] as NSDictionary
    }

    private func range(_ value: Any?) -> (Int, Int)? {
        guard let r = value as? [String: Any], let s = r["start"] as? Int, let e = r["end"] as? Int else { return nil }
        return (s, e)
    }

    func testInterleavedClientsSeeIdenticalEventsWithTheirOwnPositions() throws {
        let daemon = try ListenDaemon()
        let a = try SocketClient(daemon.socket, name: "a")
        let b = try AttachClient(daemon.socket, name: "b")
        let c = try SocketClient(daemon.socket, name: "c")
        let d = try AttachClient(daemon.socket, name: "d")
        let e = try SocketClient(daemon.socket, name: "e")
        let q = try SocketClient(daemon.socket, name: "q")
        let encodings: [(LineClient, String)] = [(a, "character"), (b, "utf-16"), (c, "utf-8"), (d, "utf-32")]

        // Everyone says how it counts and attaches to the default form.
        XCTAssertEqual(d.call("initialize", ["positionEncoding": "utf-32", "textSync": "incremental"]).result["positionEncoding"] as? String, "utf-32")
        for (client, encoding) in encodings where client !== d {
            XCTAssertEqual(client.call("initialize", ["positionEncoding": encoding]).result["positionEncoding"] as? String, encoding)
        }
        for (client, _) in encodings { XCTAssertEqual(client.call("getState").result["seq"] as? Int, 0) }
        // e watches one field's text and the submissions of every form; q wants no events.
        XCTAssertNotNil(e.call("subscribe", ["fields": ["name"], "events": ["textChanged", "submitted"]])["result"])
        XCTAssertNotNil(q.call("unsubscribe")["result"])

        // Commands from every client, one after another.
        let script: [(LineClient, String, [String: Any])] = [
            (a, "defineForm", ["fields": [["id": "name"], ["id": "city"], ["id": "pw", "configuration": ["password"]]]]),
            (a, "demandFocus", ["field": "name", "demand": "become"]),
            (b, "insertText", ["text": "é👍🏽"]),
            (c, "insertText", ["text": "日本x"]),
            (d, "moveCaret", ["to": "start"]),
            (a, "insertText", ["text": "A"]),
            (c, "select", ["start": 1, "end": 3]),        // é, in bytes
            (b, "select", ["start": 2, "end": 7]),        // 👍🏽日, in UTF-16 units
            (d, "insertText", ["text": "e\u{301}"]),      // replaces it with a decomposed é
            (a, "delete", ["unit": "word"]),
            (b, "focusNext", [:]),
            (c, "setText", ["field": "city", "text": "Zürich"]),
            (d, "focusNext", [:]),
            (a, "insertText", ["text": "s3cret"]),
            (b, "moveCaret", ["to": "wordLeft", "extend": true]),
            (c, "defineForm", ["form": "other", "fields": [["id": "x"]]]),
            (c, "setText", ["form": "other", "field": "x", "text": "elsewhere"]),
            (q, "insertText", ["field": "city", "text": "!"]),
            (d, "submit", [:]),
        ]
        for (client, method, params) in script {
            let reply = client.call(method, params)
            XCTAssertNotNil(reply["result"], "\(client.name) \(method): \(reply)")
        }
        // Then a burst: three clients type without waiting for each other.
        var ids: [(LineClient, Int)] = []
        for i in 0..<4 {
            for client in [a, b, c] as [LineClient] {
                ids.append((client, client.sendRequest("insertText", ["field": "city", "text": "\(client.name)\(i)"])))
            }
        }
        for (client, id) in ids { XCTAssertNotNil(client.response(to: id)["result"]) }
        let last = try XCTUnwrap(a.call("getState").result["seq"] as? Int)
        for (client, _) in encodings { client.readEvents(throughSeq: last) }

        // Every receiver: the same events of the default form, seq 1...last without a gap.
        let reference = a.events.filter { $0.params["form"] as? String == "default" }
        XCTAssertEqual(reference.compactMap(\.seq), Array(1...last))
        for (client, _) in encodings {
            let mine = client.events.filter { $0.params["form"] as? String == "default" }
            XCTAssertEqual(mine.compactMap(\.seq), Array(1...last), client.name)
            XCTAssertEqual(mine.map(withoutPositions), reference.map(withoutPositions), "\(client.name): events differ beyond positions")
        }
        // Only the client that named the other form hears about it.
        XCTAssertEqual(c.events.filter { $0.params["form"] as? String == "other" }.compactMap(\.method), ["formDefined", "textChanged"])
        for client in [a, b, d] as [LineClient] {
            XCTAssertTrue(client.events.allSatisfy { $0.params["form"] as? String == "default" }, client.name)
        }

        // Positions: what the character-counting client saw, recounted per encoding over
        // the text (or, masked, the display) each position refers to.
        var texts: [String: String] = ["name": "", "city": "", "pw": ""]
        var checked = 0
        for (i, event) in reference.enumerated() {
            let p = event.params
            let field = p["field"] as? String ?? ""
            let old = texts[field] ?? ""
            if event.method == "textChanged" {
                texts[field] = (p["text"] as? String) ?? (p["display"] as? String) ?? ""
            }
            let now = texts[field] ?? ""
            for (client, encoding) in encodings where client !== a {
                let theirs = client.events.filter { $0.params["form"] as? String == "default" }[i].params
                switch event.method {
                case "textChanged":
                    let (s, e) = try XCTUnwrap(range(p["edit"]))
                    let (ss, se) = try XCTUnwrap(range(p["selection"]))
                    XCTAssertEqual(range(theirs["edit"]).map { [$0.0, $0.1] }, [units(old, s, encoding), units(old, e, encoding)], "\(client.name) seq \(i + 1) edit")
                    XCTAssertEqual(range(theirs["selection"]).map { [$0.0, $0.1] }, [units(now, ss, encoding), units(now, se, encoding)], "\(client.name) seq \(i + 1) selection")
                    checked += 1
                case "selectionChanged":
                    let (ss, se) = try XCTUnwrap(range(p["selection"]))
                    XCTAssertEqual(range(theirs["selection"]).map { [$0.0, $0.1] }, [units(now, ss, encoding), units(now, se, encoding)], "\(client.name) seq \(i + 1) selection")
                    checked += 1
                default:
                    break
                }
            }
        }
        XCTAssertGreaterThan(checked, 3 * 20)
        // Encodings really differed somewhere (the text is not ASCII).
        XCTAssertNotEqual(c.events.filter { $0.method == "selectionChanged" }.map { String(describing: $0.params["selection"]) },
                          a.events.filter { $0.method == "selectionChanged" }.map { String(describing: $0.params["selection"]) })
        // The secret never reached anyone's events.
        for (client, _) in encodings {
            XCTAssertFalse(client.events.contains { String(describing: $0).contains("s3cret") }, client.name)
        }
        // incremental: textChanged without text and display for d only.
        XCTAssertTrue(d.events.filter { $0.method == "textChanged" }.allSatisfy { $0.params["text"] == nil && $0.params["display"] == nil })
        XCTAssertTrue(b.events.filter { $0.method == "textChanged" }.allSatisfy { $0.params["display"] != nil })

        // e: exactly the matching events, same seq, same content (it counts characters too).
        let expected = reference.filter { $0.method == "submitted" || ($0.method == "textChanged" && $0.params["field"] as? String == "name") }
        e.readEvents(throughSeq: try XCTUnwrap(expected.last?.seq))
        XCTAssertEqual(e.events.map { $0 as NSDictionary }, expected.map { $0 as NSDictionary })
        XCTAssertTrue(expected.contains { $0.method == "submitted" })
        // q: its commands worked, yet it got no event at all.
        XCTAssertEqual(q.call("validate").result["valid"] as? Bool, true)
        XCTAssertTrue(q.events.isEmpty, "\(q.events)")

        b.closeInput()
        d.closeInput()
        XCTAssertEqual(b.waitForExit(), 0)
        XCTAssertEqual(d.waitForExit(), 0)
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
    }

    func testSubscribeNarrowsAndUnsubscribeDrops() throws {
        let daemon = try ListenDaemon()
        let writer = try SocketClient(daemon.socket, name: "writer")
        let watcher = try SocketClient(daemon.socket, name: "watcher")
        XCTAssertNotNil(writer.call("defineForm", ["form": "f", "fields": [["id": "a"], ["id": "b"]]])["result"])
        // Every form, then without selection moves, then never field b.
        XCTAssertNotNil(watcher.call("subscribe")["result"])
        XCTAssertNotNil(watcher.call("unsubscribe", ["events": ["selectionChanged", "validityChanged"]])["result"])
        XCTAssertNotNil(watcher.call("unsubscribe", ["forms": ["f"], "fields": ["b"]])["result"])
        for (field, text) in [("a", "1"), ("b", "2")] {
            XCTAssertNotNil(writer.call("setText", ["form": "f", "field": field, "text": text])["result"])
        }
        XCTAssertNotNil(writer.call("select", ["form": "f", "field": "a", "start": 0, "end": 1])["result"])
        XCTAssertNotNil(writer.call("reset", ["form": "f"])["result"])
        let last = try XCTUnwrap(writer.call("getState", ["form": "f"]).result["seq"] as? Int)
        watcher.readEvents(throughSeq: last)
        XCTAssertEqual(watcher.events.map { "\($0.method!) \($0.params["field"] as? String ?? "-")" }, ["textChanged a", "formReset -"])
        // A bad event name is refused by name, and nothing changes.
        let bad = watcher.call("subscribe", ["events": ["textChanged", "keyPressed"]])
        XCTAssertEqual((bad["error"] as? [String: Any])?["code"] as? Int, -32602)
        XCTAssertTrue(((bad["error"] as? [String: Any])?["message"] as? String ?? "").contains("keyPressed"))
        XCTAssertEqual(daemon.stopAndCollect().status, 0)
    }
}
