import Foundation
import FormdTestSupport
import XCTest

/// Differential checks of the 2026-12-02 performance round, run on the real binary: each
/// fast path is driven next to a way of getting the same answer that does not take it.
final class Round1202ReviewTests: XCTestCase {
    /// `defineForm` lines are decoded straight from their bytes (`Envelope(defineForm:)`);
    /// the same request inside a batch is parsed into a value tree and decoded the long way.
    /// Both must define the same form and answer the same result or error, word for word.
    func testDefineFormFromBytesAnswersAsTheLongWay() throws {
        let specs = [
            #"{"id":"a"}"#, #"{"text":"t","id":"a"}"#, #"{"id" : "a" , "text" : "b" }"#,
            #"{"id":"a","text":"t","id":"b"}"#, #"{"id":"a","text":null}"#, #"{"id":"a","text":1}"#, #"{"id":""}"#,
            #"{"id":"\u0061","text":"\ud83d\ude00\/\b\f\n\r\t\"\\"}"#, #"{"id":"a","t\u0065xt":"x"}"#, #"{"\u0069d":"a"}"#,
            #"{"id":"é"},{"id":"e\u0301"}"#, #"{"id":"K"},{"id":"\u212a"}"#, #"{"id":";"},{"id":"\u037e"}"#,
            #"{"id":"`"},{"id":"x"},{"id":"\u1fef"}"#, #"{"id":"a"},{"id":"a"}"#, #"{"id":"a"},{"id":"b"}"#,
            #"{"id":"a","hints":{"k":{"k":{"k":1}}}}"#, #"{"id":"a","secure":true,"text":"pw"}"#,
            #"{"id":"a","configuration":["nope"]}"#, #"{"id":"a","maxLength":1,"text":"xyz"}"#,
            #"{"id":"a","extra":1}"#, #"{"id":"🇫🇷","text":"x"}"#, #"[]"#, #""a""#, "null", #"{}"#,
        ]
        var lines = specs.map { #"{"jsonrpc":"2.0","id":7,"method":"defineForm","params":{"fields":[\#($0)]}}"# }
        lines += [
            #"{"id":"s","method":"defineForm","params":{"fields":[{"id":"a"}],"presets":{"p":{"text":"x"}}}}"#,
            #"{"params":{"fields":[{"id":"a"}]},"method":"defineForm","id":1.0}"#,
            #"{"id":3,"method":"defineForm","params":{"form":"f2","fields":[{"id":"a"}]}}"#,
            #"{"id":3,"method":"defineForm","params":{"form":5,"fields":[{"id":"a"}]}}"#,
            #"{"id":3,"method":"defineForm","params":{"fields":null}}"#,
            #"{"id":3,"method":"defineForm","params":{"fields":[{"id":"a"}],"fields":[]}}"#,
            #"{"id":3,"method":"defineForm","params":{"fields":[{"id":"a"}]},"jsonrpc":"1.0"}"#,
            #"{"id":3,"method":"defineForm","params":{"fields":[[{"id":"a"}]]}}"#,
            #"{"id":3,"method":"defineForm","params":{"fields":["# + (0..<40).map { #"{"id":"f\#($0)","text":"t"}"# }.joined(separator: ",") + "]}}",
        ]
        for depth in 1...6 {
            let hints = String(repeating: #"{"k":"#, count: depth) + "1" + String(repeating: "}", count: depth)
            lines.append(#"{"id":\#(depth),"method":"defineForm","params":{"fields":[{"id":"a","hints":\#(hints)}]}}"#)
        }
        // A batch nests its request one level deeper.
        for (depth, more) in [(64, [String]()), (5, []), (6, []), (64, ["--max-fields", "1"])] {
            let args = ["--max-depth", "\(depth)"] + more
            let plain = try FormdProcess.run(args, input: lines.map { $0 + "\n" }.joined())
            let batched = try FormdProcess.run(["--max-depth", "\(depth + 1)"] + more, input: lines.map { "[" + $0 + "]\n" }.joined())
            XCTAssertEqual(plain.status, 0)
            XCTAssertEqual(batched.status, 0)
            let a = plain.stdoutLines, b = batched.stdoutLines
            XCTAssertEqual(a.count, b.count, "\(args)")
            for (x, y) in zip(a, b) where x != y {
                // A batch too deep is refused whole, for its own depth.
                if x.contains("limit maxDepth exceeded") {
                    XCTAssertTrue(y.contains("limit maxDepth exceeded"), "\(args): \(y)")
                    continue
                }
                // A batch's response is the same object in an array; its events are the same.
                XCTAssertEqual("[" + x + "]", y, "\(args)")
            }
            XCTAssertTrue(a.contains { $0.contains("\"formDefined\"") })
            XCTAssertTrue(a.contains { $0.contains("\"error\"") })
        }
    }

    /// `FieldIndex` keeps ASCII ids in its table only and looks a non-ASCII id equal to an
    /// ASCII one (U+212A, U+037E, U+1FEF) up by its ASCII spelling. Ids are compared as
    /// Swift compares strings (canonical equivalence): a field defined under one spelling is
    /// found, refused as a duplicate and removed under the other, in small and large forms.
    func testCanonicallyEquivalentIdsNameTheSameField() throws {
        let pairs = [("K", "\u{212A}"), (";", "\u{037E}"), ("`", "\u{1FEF}"), ("aKb", "a\u{212A}b"),
                     ("x;y`", "x\u{037E}y\u{1FEF}"), ("é", "e\u{301}"), ("K\u{301}", "\u{212A}\u{301}"),
                     (String(repeating: "q", count: 40) + "K", String(repeating: "q", count: 40) + "\u{212A}")]
        for others in [0, 1_500] {
            for (a, b) in pairs {
                for (defined, asked) in [(a, b), (b, a)] {
                    func request(_ method: String, _ params: [String: Any], id: Int) -> String {
                        let data = try! JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": params])
                        return String(decoding: data, as: UTF8.self) + "\n"
                    }
                    let fields = (0..<others).map { ["id": "f\($0)"] } + [["id": defined]] + [["id": "z"]]
                    var input = request("defineForm", ["fields": fields], id: 1)
                    input += request("setText", ["field": asked, "text": "hello"], id: 2)
                    input += request("addField", ["field": ["id": asked]], id: 3)
                    input += request("defineForm", ["fields": [["id": defined], ["id": asked]]], id: 4)
                    input += request("addField", ["field": ["id": "n"], "after": asked], id: 5)
                    input += request("removeField", ["field": asked], id: 6)
                    input += request("setText", ["field": defined, "text": "gone"], id: 7)
                    input += request("addField", ["field": ["id": defined]], id: 8)
                    input += request("setText", ["field": asked, "text": "back"], id: 9)
                    let output = try FormdProcess.run([], input: input)
                    var answers: [Int: [String: Any]] = [:]
                    for message in FormdProcess.messages(output) {
                        if let id = message["id"] as? Int { answers[id] = message }
                    }
                    let label = "\(others) fields, defined \(Array(defined.unicodeScalars)), asked \(Array(asked.unicodeScalars))"
                    func applied(_ id: Int) -> Bool? { (answers[id]?["result"] as? [String: Any])?["applied"] as? Bool }
                    func error(_ id: Int) -> String? { (answers[id]?["error"] as? [String: Any])?["message"] as? String }
                    XCTAssertEqual(applied(2), true, label)
                    XCTAssertNotNil(error(3)?.range(of: "already exists"), label)
                    XCTAssertNotNil(error(4)?.range(of: "duplicate"), "\(label): \(answers[4] ?? [:])")
                    XCTAssertNotNil(answers[5]?["result"], label)
                    XCTAssertNotNil(answers[6]?["result"], label)
                    XCTAssertNotNil(error(7), label)
                    XCTAssertNotNil(answers[8]?["result"], label)
                    XCTAssertEqual(applied(9), true, label)
                }
            }
        }
    }

    /// The undo log keeps its texts as bytes in a ring (`UndoTextArena`) that wraps around,
    /// is compacted in place and grows. Every undo and redo must give back the exact text the
    /// field held, whatever moved underneath: many fields, non-ASCII texts, a field whose
    /// old step stays live at the log's front while the others churn, secure fields, and a
    /// budget small enough to drop steps.
    func testUndoAndRedoGiveBackExactTextsThroughTheRing() throws {
        for (seed, args) in [(UInt64(1), ["--max-undo", "3"]), (2, ["--max-undo", "3", "--max-undo-text", "60000"]), (3, [])] {
            try checkUndoRing(seed: seed, args: args)
        }
    }

    private func checkUndoRing(seed: UInt64, args: [String]) throws {
        var rng = SplitMix64(seed: seed)
        let pieces = ["a", "b", " ", "é", "e\u{301}", "👍🏽", "🇫🇷", "中", "x\r\ny", "\u{1100}\u{1161}", "q"]
        func text(_ n: Int) -> String { (0..<n).map { _ in pieces[rng.next(below: pieces.count)] }.joined() }
        let fields = ["keep", "a", "b", "secret", "c"]
        var texts = Dictionary(uniqueKeysWithValues: fields.map { ($0, "") })
        var lines: [String] = []
        // Request id (a getState) -> the field and the text it must hold then.
        var expected: [Int: (String, String)] = [:]
        func send(_ method: String, _ params: [String: Any]) {
            let data = try! JSONSerialization.data(withJSONObject: ["jsonrpc": "2.0", "id": lines.count, "method": method, "params": params])
            lines.append(String(decoding: data, as: UTF8.self))
        }
        func check(_ field: String) {
            expected[lines.count] = (field, texts[field]!)
            send("getState", ["includeSecrets": true])
        }
        send("defineForm", ["fields": fields.map { ["id": $0, "secure": $0 == "secret"] }])
        // One step of "keep" made first stays in reach: the other fields' dead steps pile up
        // behind it until the log compacts them.
        texts["keep"] = "kept " + text(3)
        send("setText", ["field": "keep", "text": texts["keep"]!])
        for _ in 0..<1_500 {
            // Cheap steps in other fields, so that more than 4096 dead records pile up
            // behind "keep"'s and the log compacts them.
            for _ in 0..<2 {
                let other = fields[1 + rng.next(below: fields.count - 1)]
                let t = texts[other] == "a" ? "b" : "a"
                send("setText", ["field": other, "text": t])
                texts[other] = t
            }
            let field = fields[1 + rng.next(below: fields.count - 1)]
            var history: [String] = [texts[field]!]
            for _ in 0..<(1 + rng.next(below: 3)) {
                switch rng.next(below: 3) {
                case 0:
                    let t = text([1, 8, 60, 200][rng.next(below: 4)])
                    // The same text again is no step (in a field that is not masked).
                    guard t != texts[field] else { continue }
                    send("setText", ["field": field, "text": t])
                    texts[field] = t
                case 1:
                    let t = text(1 + rng.next(below: 30))
                    send("moveCaret", ["field": field, "to": "end"])
                    send("insertText", ["field": field, "text": t])
                    texts[field]! += t
                default:
                    guard !texts[field]!.isEmpty else { continue }
                    send("moveCaret", ["field": field, "to": "end"])
                    for _ in 0..<min(1 + rng.next(below: 4), texts[field]!.count) {
                        send("delete", ["field": field, "direction": "backward"])
                        texts[field]!.removeLast()
                    }
                }
                history.append(texts[field]!)
            }
            guard history.count > 1, rng.next(below: 2) == 0 else { continue }
            // Undo what was just done, then redo it: each must give back the text held.
            for k in stride(from: history.count - 2, through: 0, by: -1) {
                send("undo", ["field": field])
                texts[field] = history[k]
                check(field)
            }
            for k in 1..<history.count {
                send("redo", ["field": field])
                texts[field] = history[k]
                check(field)
            }
        }
        // Its step outlived every other.
        send("undo", ["field": "keep"])
        texts["keep"] = ""
        check("keep")
        let output = try FormdProcess.run(args, input: lines.map { $0 + "\n" }.joined(), timeout: 120)
        XCTAssertEqual(output.status, 0)
        var checked = 0
        for message in FormdProcess.messages(output) {
            guard let id = message["id"] as? Int, let (field, want) = expected[id] else { continue }
            let states = (message["result"] as? [String: Any])?["fields"] as? [[String: Any]]
            let state = states?.first { $0["id"] as? String == field }
            XCTAssertEqual(state?["text"] as? String, want, "seed \(seed) \(args): request \(id), field \(field)")
            checked += 1
        }
        XCTAssertEqual(checked, expected.count)
    }
}
