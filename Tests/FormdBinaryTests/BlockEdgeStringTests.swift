import Foundation
import XCTest

/// Strings that end right at, just before or just after the end of a 64 KiB read block,
/// where the sixteen- and thirty-two-byte string scans and copies (`CFormdStrings`) and the
/// compact-keystroke decoding meet the edge of what was read: the text must arrive whole,
/// decoded as JSON decodes it, in a plain field and in a secure one, whose text appears only
/// where it was asked for.
final class BlockEdgeStringTests: XCTestCase {
    /// Texts as written in JSON and as they decode: plain ASCII, escapes near the end,
    /// beyond ASCII, `\u` escapes (a surrogate pair among them). Each holds a marker.
    static let tails: [(json: String, text: String)] = [
        ("SECRETMARKabcdefghijklmnopqrstuvwxyz0123456789", "SECRETMARKabcdefghijklmnopqrstuvwxyz0123456789"),
        (#"SECRETMARKabcdefghijklmnop\"q\\r\/\t"#, "SECRETMARKabcdefghijklmnop\"q\\r/\t"),
        ("SECRETMARKabcdefghijklmnopé中👍", "SECRETMARKabcdefghijklmnopé中👍"),
        (#"SECRETMARKabcdefghijklmnop\u00e9\ud83d\ude00"#, "SECRETMARKabcdefghijklmnopé😀"),
    ]
    /// Where the text's closing quote lands, from the block's end.
    static let edges = [-33, -32, -17, -16, -1, 0, 1, 16, 31, 32]

    /// The input: a form, filler lines, then the text typed into the plain field `t`, so
    /// that the text's closing quote is the byte at `65_536 + edge`, and into the secure
    /// field `s` on the next line; then the state with secrets.
    static func input(json: String, edge: Int) -> Data {
        var out = Data(#"{"jsonrpc":"2.0","id":0,"method":"defineForm","params":{"fields":[{"id":"f"},{"id":"t"},{"id":"s","secure":true}]}}"#.utf8 + [0x0A])
        let target = Data(#"{"jsonrpc":"2.0","id":1,"method":"insertText","params":{"field":"t","text":"\#(json)"}}"#.utf8)
        let quote = target.count - 3  // the closing quote, before `}}`
        var room = 65_536 + edge - quote - out.count
        let fillerHead = #"{"jsonrpc":"2.0","id":2,"method":"insertText","params":{"field":"f","text":""#, fillerTail = "\"}}\n"
        let bare = fillerHead.utf8.count + fillerTail.utf8.count
        while room > 0 {
            let n = min(room, 3_000)
            if n > bare {
                out += Data((fillerHead + String(repeating: "x", count: n - bare) + fillerTail).utf8)
            } else {
                out += Data(String(repeating: " ", count: n - 1).utf8 + [0x0A])
            }
            room -= n
        }
        out += target + [0x0A]
        out += Data(#"{"jsonrpc":"2.0","id":4,"method":"insertText","params":{"field":"s","text":"\#(json)"}}"#.utf8 + [0x0A])
        out += Data(#"{"jsonrpc":"2.0","id":3,"method":"getState","params":{"includeSecrets":true}}"#.utf8 + [0x0A])
        return out
    }

    /// Runs formd with `input` as a file on stdin, so every read takes a whole block.
    static func run(_ input: Data) throws -> [String] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("formd-edge-\(getpid())-\(UUID().uuidString)")
        try input.write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let (process, stdout) = try FormdProcess.start(stdinFile: path)
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static func object(_ line: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }

    /// The text of field `id` in the final state (asked with secrets).
    static func finalText(_ lines: [String], _ id: String) -> String? {
        guard let state = lines.compactMap(object).first(where: { $0["id"] as? Int == 3 })?["result"] as? [String: Any],
              let fields = state["fields"] as? [[String: Any]] else { return nil }
        return fields.first { $0["id"] as? String == id }?["text"] as? String
    }

    func testATextEndingAtABlocksEdgeArrivesWholeAndASecureOneOnlyWhereAskedFor() throws {
        for (json, text) in Self.tails {
            for edge in Self.edges {
                let input = Self.input(json: json, edge: edge)
                let place = "text \(json) ending at block edge \(edge)"
                XCTAssertEqual(input[65_536 + edge], UInt8(ascii: "\""), "the closing quote is where it should be: \(place)")
                XCTAssertEqual(input[65_536 + edge + 1], UInt8(ascii: "}"), place)
                let lines = try Self.run(input)
                let messages = lines.compactMap(Self.object)
                XCTAssertEqual(messages.count, lines.count, "every line is JSON: \(place)")
                let changed = messages.filter { $0["method"] as? String == "textChanged" }.compactMap { $0["params"] as? [String: Any] }
                XCTAssertEqual(changed.first { $0["field"] as? String == "t" }?["text"] as? String, text, place)
                XCTAssertEqual(Self.finalText(lines, "t"), text, place)
                XCTAssertEqual(Self.finalText(lines, "s"), text, place)
                XCTAssertTrue(lines.contains(#"{"jsonrpc":"2.0","id":1,"result":{"applied":true}}"#), place)
                XCTAssertTrue(lines.contains(#"{"jsonrpc":"2.0","id":4,"result":{"applied":true}}"#), place)
                // The secure field's text shows only in the state asked with secrets.
                let secure = changed.first { $0["field"] as? String == "s" }
                XCTAssertNotNil(secure, place)
                XCTAssertNil(secure?["text"], place)
                let showing = lines.filter { $0.contains("SECRETMARK") }
                XCTAssertEqual(showing.count, 2, "the plain field's change and the state: \(place)")
                XCTAssertFalse(showing.contains { $0.contains(#""field":"s""#) }, place)
            }
        }
    }
}
