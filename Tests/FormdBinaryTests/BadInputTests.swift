import Foundation
import XCTest

/// Every class of bad input gets its error code, causes no event, and leaves the state as
/// if it had never been sent: a run with bad lines interleaved ends in the same state as a
/// run of the good lines alone. `bad` holds the plain mistakes, `HostileInput.cases` the
/// input built to hurt (broken UTF-8, NULs, surrogates, huge numbers, limits, garbage).
final class BadInputTests: XCTestCase {
    /// Small limits, so that going over each is cheap; the good commands fit.
    static let args = ["--max-line-bytes", "2048", "--max-text-length", "64", "--max-fields", "2", "--max-forms", "1"]

    static let good = [
        #"{"id":"g1","method":"defineForm","params":{"fields":[{"id":"user","required":true,"maxLength":8},{"id":"pin","secure":true,"maxLength":4,"deleteOnEmpty":"focusPrevious"}]}}"#,
        #"{"id":"g2","method":"demandFocus","params":{"field":"user","demand":"become"}}"#,
        #"{"id":"g3","method":"setText","params":{"field":"user","text":"ada"}}"#,
        #"{"id":"g4","method":"pressReturn"}"#,
        #"{"id":"g5","method":"setText","params":{"field":"pin","text":"1234"}}"#,
        #"{"id":"g6","method":"delete"}"#,
    ]

    /// (input bytes, expected error code, whether it answers as a response (else an `error` notification)).
    static let bad: [(Data, Int, String)] = [
        (Data("{\"id\":1,".utf8), -32700, "truncated JSON"),
        (Data("nonsense".utf8), -32700, "not JSON"),
        (Data([0x7B, 0x22, 0x69, 0x64, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]), -32700, "invalid UTF-8"),
        (Data(#"{"id":2,"method":"setText","params":{"field":"user","text":"\ud800"}}"#.utf8), -32700, "lone surrogate"),
        (Data("{\"id\":2,\"method\":\"getState\"}\u{0}".utf8), -32700, "NUL byte"),
        (Data(#"42"#.utf8), -32600, "not an object"),
        (Data(#"[]"#.utf8), -32600, "empty batch"),
        (Data(#"{"id":3}"#.utf8), -32600, "no method"),
        (Data(#"{"id":3,"method":7}"#.utf8), -32600, "method not a string"),
        (Data(#"{"jsonrpc":"1.0","id":3,"method":"getState"}"#.utf8), -32600, "wrong jsonrpc"),
        (Data(#"{"id":{},"method":"getState"}"#.utf8), -32600, "bad id type"),
        (Data(#"{"id":3,"method":"getState","extra":1}"#.utf8), -32600, "unknown envelope key"),
        (Data(#"{"id":3,"id":4,"method":"getState"}"#.utf8), -32600, "duplicate envelope key"),
        (Data(#"{"id":3,"method":"setText","params":"user"}"#.utf8), -32600, "params not structured"),
        (Data(#"{"id":4,"method":"fly"}"#.utf8), -32601, "unknown method"),
        (Data(#"{"id":5,"method":"setText","params":["user","x"]}"#.utf8), -32602, "positional params"),
        (Data(#"{"id":5,"method":"setText","params":{"field":"user"}}"#.utf8), -32602, "missing param"),
        (Data(#"{"id":5,"method":"setText","params":{"field":"user","text":5}}"#.utf8), -32602, "wrong type"),
        (Data(#"{"id":5,"method":"setText","params":{"field":"user","text":"x","colour":1}}"#.utf8), -32602, "unknown param"),
        (Data(#"{"id":5,"method":"setText","params":{"field":"user","text":"x","text":"y"}}"#.utf8), -32602, "duplicate param"),
        (Data(#"{"id":5,"method":"demandFocus","params":{"field":"user","demand":"steal"}}"#.utf8), -32602, "bad enum"),
        (Data(#"{"id":5,"method":"configureField","params":{"field":"user","maxLength":1e400}}"#.utf8), -32602, "number that does not fit"),
        (Data(#"{"id":5,"method":"configureField","params":{"field":"user","maxLength":-1}}"#.utf8), -32602, "negative length"),
        (Data(#"{"id":5,"method":"configureField","params":{"field":"user","minLength":9}}"#.utf8), -32602, "min above max"),
        (Data(#"{"id":5,"method":"addField","params":{"field":{"id":"user"}}}"#.utf8), -32602, "duplicate id"),
        (Data(#"{"id":5,"method":"defineForm","params":{"fields":[{"id":"a"},{"id":"b","pattern":"("}]}}"#.utf8), -32602, "bad define leaves the old form"),
        (Data(#"{"id":6,"method":"setText","params":{"field":"ghost","text":"x"}}"#.utf8), -32001, "unknown field"),
        (Data(#"{"id":7,"method":"getState","params":{"form":"nowhere"}}"#.utf8), -32002, "unknown form"),
        (Data(#"{"method":"setText","params":{"field":"ghost","text":"x"}}"#.utf8), -32001, "failing notification"),
        (Data((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8), -32003, "too deep"),
        (Data(("{\"id\":8,\"method\":\"setText\",\"params\":{\"field\":\"user\",\"text\":\"" + String(repeating: "x", count: 3000) + "\"}}").utf8), -32003, "line too long"),
    ]

    static var all: [(Data, Int, String)] { bad + HostileInput.cases }

    func testBadInputChangesNothingAndIsAnsweredWithItsCode() throws {
        let args = Self.args
        let final = #"{"id":"final","method":"getState","params":{"includeSecrets":true}}"#
        let clean = try FormdProcess.run(args, input: (Self.good + [final]).map { $0 + "\n" }.joined())
        var mixed = Data()
        for (i, line) in Self.good.enumerated() {
            mixed.append(Data((line + "\n").utf8))
            for (bytes, _, _) in Self.ordered(i) {
                mixed.append(bytes)
                mixed.append(Data("\n".utf8))
            }
        }
        mixed.append(Data((final + "\n").utf8))
        let dirty = try FormdProcess.run(args, inputData: mixed)
        XCTAssertEqual(dirty.status, 0, dirty.stderr)

        let cleanMessages = FormdProcess.messages(clean)
        let dirtyMessages = FormdProcess.messages(dirty)
        let errors = dirtyMessages.compactMap { m -> Int? in
            if let e = m["error"] as? [String: Any] { return e["code"] as? Int }
            if m["method"] as? String == "error" { return (m["params"] as? [String: Any])?["code"] as? Int }
            return nil
        }
        XCTAssertEqual(errors, Self.orderedBad.map { $0.1 }, "one error per bad line, with its code, in order")
        let withoutErrors = dirtyMessages.filter { $0["error"] == nil && $0["method"] as? String != "error" }
        XCTAssertEqual(withoutErrors.count, cleanMessages.count, "bad input must cause no events or results")
        XCTAssertEqual(NSDictionary(dictionary: dirtyMessages.last!), NSDictionary(dictionary: cleanMessages.last!),
                       "the final state must equal the state of the good commands alone")
    }

    /// The bad lines sent after good line `i`: every `good.count`-th, so each class meets
    /// several states.
    static func ordered(_ i: Int) -> [(Data, Int, String)] {
        all.enumerated().filter { $0.offset % good.count == i }.map { $0.element }
    }

    /// `all` in the order the mixed run sends it.
    static var orderedBad: [(Data, Int, String)] { (0..<good.count).flatMap(ordered) }

    func testEveryErrorMessageNamesWhatWasWrong() throws {
        for (bytes, code, what) in Self.all {
            let define = Data((Self.good[0] + "\n").utf8)
            let out = try FormdProcess.run(Self.args, inputData: define + bytes + Data("\n".utf8))
            // The definition answers with formDefined and its response; then the bad line.
            let messages = Array(FormdProcess.messages(out).dropFirst(2))
            XCTAssertEqual(messages.count, 1, "\(what): exactly one message")
            let error = (messages.first?["error"] ?? (messages.first?["params"])) as? [String: Any]
            XCTAssertEqual(error?["code"] as? Int, code, what)
            let message = error?["message"] as? String ?? ""
            XCTAssertGreaterThan(message.count, 10, "\(what): message too vague: \(message)")
        }
    }
}
