import Foundation
import XCTest

/// Every limit has a default, a flag, and a refusal: error -32003 whose message names
/// the limit and the flag that raises it, with nothing changed and the daemon going on.
final class LimitTests: XCTestCase {
    struct Case {
        var name: String
        var args: [String]
        /// Commands run first; all must succeed.
        var setup: [String]
        /// Commands right at the limit: they must succeed.
        var atLimit: [String]
        /// Commands over the limit: each refused with -32003.
        var overLimit: [String]
    }

    static let textCases: Case = Case(
        name: "maxTextLength", args: ["--max-text-length", "5"],
        setup: [
            #"{"id":"s1","method":"defineForm","params":{"fields":[{"id":"a","text":"ab"},{"id":"pin","secure":true},{"id":"m","maxLength":3},{"id":"n"}]}}"#,
            #"{"id":"s2","method":"demandFocus","params":{"field":"a","demand":"become"}}"#,
        ],
        atLimit: [
            #"{"id":"k1","method":"insertText","params":{"text":"cde"}}"#,
            #"{"id":"k2","method":"setText","params":{"field":"pin","text":"12345"}}"#,
            // Characters, not bytes or scalars: five accented letters are five.
            #"{"id":"k3","method":"setText","params":{"field":"n","text":"e\u0301e\u0301e\u0301e\u0301e\u0301"}}"#,
            #"{"id":"k4","method":"configureField","params":{"field":"m","text":"xyz"}}"#,
        ],
        overLimit: [
            #"{"id":"o1","method":"insertText","params":{"text":"f"}}"#,
            #"{"id":"o2","method":"insertText","params":{"field":"a","text":"\ud83d\ude00"}}"#,
            #"{"id":"o3","method":"editAction","params":{"field":"a","action":"paste","text":"g"}}"#,
            #"{"id":"o4","method":"setText","params":{"field":"pin","text":"s3cr3t"}}"#,
            #"{"id":"o5","method":"setText","params":{"field":"m","text":"abcdef"}}"#,
            #"{"id":"o6","method":"configureField","params":{"field":"a","text":"123456"}}"#,
            #"{"id":"o7","method":"addField","params":{"field":{"id":"b","text":"123456"}}}"#,
            #"{"id":"o8","method":"defineForm","params":{"fields":[{"id":"c","text":"123456"}]}}"#,
            #"{"id":"o9","method":"defineForm","params":{"form":"other","fields":[{"id":"c","text":"123456"}]}}"#,
        ])

    static let cases: [Case] = [
        Case(name: "maxFields", args: ["--max-fields", "3"],
             setup: [],
             atLimit: [#"{"id":"k1","method":"defineForm","params":{"fields":[{"id":"a"},{"id":"b"},{"id":"c"}]}}"#,
                       #"{"id":"k2","method":"defineForm","params":{"form":"f2","fields":[{"id":"a"},{"id":"b"}]}}"#,
                       #"{"id":"k3","method":"addField","params":{"form":"f2","field":{"id":"c"}}}"#],
             overLimit: [#"{"id":"o1","method":"defineForm","params":{"fields":[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"}]}}"#,
                         #"{"id":"o2","method":"addField","params":{"field":{"id":"d"}}}"#,
                         #"{"id":"o3","method":"addField","params":{"form":"f2","field":{"id":"d"},"after":"a"}}"#]),
        Case(name: "maxForms", args: ["--max-forms", "2"],
             setup: [],
             // The default form counts: one more may be created, and redefined at will.
             atLimit: [#"{"id":"k1","method":"defineForm","params":{"form":"second","fields":[{"id":"a"}]}}"#,
                       #"{"id":"k2","method":"defineForm","params":{"form":"second","fields":[{"id":"b"}]}}"#,
                       #"{"id":"k3","method":"defineForm","params":{"fields":[{"id":"c"}]}}"#],
             overLimit: [#"{"id":"o1","method":"defineForm","params":{"form":"third","fields":[]}}"#]),
        textCases,
        // 43 bytes in all: a field's text, its initial text and its id count, a preset's text
        // once per field that gets it (20 + 2 at the setup, 43 once a and c are filled).
        Case(name: "maxTotalText", args: ["--max-total-text", "43"],
             setup: [#"{"id":"s1","method":"defineForm","params":{"presets":{"ten":{"text":"0123456789"}},"fields":[{"id":"a"},{"id":"b","configuration":["ten"]}]}}"#],
             atLimit: [#"{"id":"k1","method":"setText","params":{"field":"a","text":"abcdefghij"}}"#,
                       #"{"id":"k2","method":"addField","params":{"field":{"id":"c","text":"12345"}}}"#,
                       // At the budget, replacing text by as much or less still works.
                       #"{"id":"k3","method":"setText","params":{"field":"a","text":"ABCDEFGHIJ"}}"#,
                       #"{"id":"k4","method":"setText","params":{"field":"c","text":"1"}}"#,
                       #"{"id":"k5","method":"undo","params":{"field":"c"}}"#,
                       #"{"id":"k6","method":"redo","params":{"field":"c"}}"#,
                       #"{"id":"k7","method":"undo","params":{"field":"c"}}"#],
             overLimit: [#"{"id":"o1","method":"setText","params":{"field":"a","text":"abcdefghijk"}}"#,
                         #"{"id":"o2","method":"editAction","params":{"field":"c","action":"paste","text":"z"}}"#,
                         #"{"id":"o3","method":"addField","params":{"field":{"id":"d","text":"z"}}}"#,
                         #"{"id":"o4","method":"addField","params":{"field":{"id":"d","configuration":["ten"]}}}"#,
                         #"{"id":"o5","method":"configureField","params":{"field":"b","text":"0123456789x"}}"#,
                         #"{"id":"o6","method":"defineForm","params":{"form":"other","presets":{"p":{"text":"x"}},"fields":[{"id":"x","configuration":["p"]}]}}"#,
                         #"{"id":"o7","method":"insertText","params":{"field":"c","text":"zz"}}"#]),
    ]

    func testEachLimitRefusesByNameAndFlagAndChangesNothing() throws {
        let getState = ["default", "second", "f2"].map { #"{"id":"state-\#($0)","method":"getState","params":{"form":"\#($0)","includeSecrets":true}}"# }
        for c in Self.cases {
            let flag = c.args[0]
            let clean = try FormdProcess.run(c.args, input: (c.setup + c.atLimit + getState).map { $0 + "\n" }.joined())
            // Each refused command is sent twice, once its state is at the limit.
            let mixed = c.setup + c.atLimit + c.overLimit + c.overLimit + getState
            let dirty = try FormdProcess.run(c.args, input: mixed.map { $0 + "\n" }.joined())
            XCTAssertEqual(dirty.status, 0, "\(c.name): \(dirty.stderr)")
            let cleanMessages = FormdProcess.messages(clean)
            for m in cleanMessages where m["id"] != nil && !(m["id"] as! String).hasPrefix("state-") {
                XCTAssertNil(m["error"], "\(c.name): a command at the limit failed: \(m)")
            }
            let refusals = FormdProcess.messages(dirty).filter { ($0["id"] as? String)?.hasPrefix("o") == true }
            XCTAssertEqual(refusals.count, c.overLimit.count * 2, "\(c.name): every over-limit command is answered")
            for r in refusals {
                let error = r["error"] as? [String: Any]
                XCTAssertEqual(error?["code"] as? Int, -32003, "\(c.name): \(r)")
                let message = error?["message"] as? String ?? ""
                XCTAssertTrue(message.contains("limit \(c.name) exceeded") && message.contains(flag), "\(c.name): \(message)")
                XCTAssertFalse(message.contains("s3cr3t"), "a limit message must not quote the text")
            }
            let withoutRefusals = FormdProcess.messages(dirty).filter { ($0["id"] as? String)?.hasPrefix("o") != true }
            XCTAssertEqual(withoutRefusals.map { NSDictionary(dictionary: $0) }, cleanMessages.map { NSDictionary(dictionary: $0) },
                           "\(c.name): refused commands must cause no events and change no state")
        }
    }

    func testUndoKeepsMaxUndoSteps() throws {
        func undos(_ args: [String], edits: Int) throws -> [Bool] {
            var lines = [#"{"method":"defineForm","params":{"fields":[{"id":"a"}]}}"#]
            lines += (0..<edits).map { #"{"method":"setText","params":{"field":"a","text":"v\#($0)"}}"# }
            lines += (0...edits).map { #"{"id":\#($0),"method":"undo","params":{"field":"a"}}"# }
            let out = try FormdProcess.run(args, input: lines.map { $0 + "\n" }.joined())
            return FormdProcess.messages(out).compactMap { ($0["result"] as? [String: Any])?["applied"] as? Bool }
        }
        XCTAssertEqual(try undos(["--max-undo", "2"], edits: 4), [true, true, false, false, false])
        let byDefault = try undos([], edits: 101)
        XCTAssertEqual(byDefault.filter { $0 }.count, 100, "default --max-undo is 100")
    }

    /// The defaults, as `--help` states them, hold without any flag.
    func testDefaultsAreTheDocumentedOnes() throws {
        let help = try FormdProcess.run(["--help"]).stdout
        for (flag, value) in [("--max-line-bytes", 1_048_576), ("--max-depth", 64), ("--max-fields", 100_000),
                              ("--max-forms", 1_000), ("--max-text-length", 1_000_000), ("--max-undo", 100),
                              ("--max-total-text", 67_108_864), ("--max-line-output", 16_777_216)] {
            let line = help.split(separator: "\n").first { $0.contains(flag + " ") } ?? ""
            XCTAssertTrue(line.contains("(default: \(value))"), "--help: \(line)")
        }
        // 1000 forms (the default form and 999 more), then one too many.
        var lines = (1..<1000).map { #"{"id":"f\#($0)","method":"defineForm","params":{"form":"f\#($0)","fields":[]}}"# }
        lines.append(#"{"id":"over-forms","method":"defineForm","params":{"form":"f1000","fields":[]}}"#)
        // A million characters fit in one field, one more does not.
        lines.insert(#"{"id":"fields","method":"defineForm","params":{"form":"f1","fields":[{"id":"a"}]}}"#, at: 999)
        lines.append(#"{"id":"text","method":"setText","params":{"form":"f1","field":"a","text":"\#(String(repeating: "y", count: 1_000_000))"}}"#)
        lines.append(#"{"id":"over-text","method":"insertText","params":{"form":"f1","field":"a","text":"z"}}"#)
        // 100 001 fields need a longer line than the default allows, but are still too many.
        let fields = (0...100_000).map { #"{"id":"\#($0)"}"# }.joined(separator: ",")
        lines.append(#"{"id":"over-fields","method":"defineForm","params":{"form":"f2","fields":[\#(fields)]}}"#)
        let out = try FormdProcess.run(["--max-line-bytes", "2000000"], input: lines.map { $0 + "\n" }.joined(), timeout: 60)
        var codes: [String: Int] = [:]
        for m in FormdProcess.messages(out) {
            guard let id = m["id"] as? String else { continue }
            codes[id] = (m["error"] as? [String: Any])?["code"] as? Int ?? 0
        }
        XCTAssertEqual(codes["f999"], 0)
        XCTAssertEqual(codes["over-forms"], -32003)
        XCTAssertEqual(codes["text"], 0)
        XCTAssertEqual(codes["over-text"], -32003)
        XCTAssertEqual(codes["over-fields"], -32003)
    }

    /// Limits set as high as a number goes must not overflow (a crash once: the line limit
    /// plus one), and nesting deep enough to overflow the stack cannot be allowed.
    func testExtremeLimitFlagsAreSafe() throws {
        let huge = String(Int.max)
        for flag in ["--max-line-bytes", "--max-fields", "--max-forms", "--max-text-length", "--max-undo", "--max-total-text", "--max-line-output",
                     "--max-pending-output"] {
            let out = try FormdProcess.run([flag, huge], input: """
                {"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}]}}
                {"id":2,"method":"setText","params":{"field":"a","text":"x"}}
                {"id":3,"method":"undo","params":{"field":"a"}}

                """)
            XCTAssertEqual(out.status, 0, "\(flag) \(huge): \(out.stderr)")
            XCTAssertEqual(FormdProcess.messages(out).filter { $0["result"] != nil }.count, 3, "\(flag) \(huge)")
        }
        let refused = try FormdProcess.run(["--max-depth", "4097"])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("'--max-depth' takes a whole number from 1 to 4096"), refused.stderr)
        // At the ceiling, the deepest value is handled end to end (parsed, kept, echoed, compared, released).
        let n = 4090
        let deep = String(repeating: "[", count: n) + String(repeating: "]", count: n)
        let out = try FormdProcess.run(["--max-depth", "4096"], input: """
            {"id":1,"method":"defineForm","params":{"fields":[{"id":"a","hints":{"k":\(deep)}}]}}
            {"id":2,"method":"configureField","params":{"field":"a","hints":{"k":\(deep)}}}
            {"id":3,"method":"getState"}
            \(deep)

            """)
        XCTAssertEqual(out.status, 0, out.stderr)
        // (Foundation's JSON parser stops at 512 levels, so the answers are matched as text.)
        let answered = out.stdoutLines.compactMap { line in (1...3).first { line.hasPrefix(#"{"jsonrpc":"2.0","id":\#($0),"result":"#) } }
        XCTAssertEqual(answered, [1, 2, 3])
        XCTAssertTrue(out.stdoutLines.last?.hasPrefix(#"[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"#) == true)
    }

    /// A refusal by the text budget reads the same whatever a masked field holds: "ab" and
    /// "éé" are two characters each but 2 and 4 bytes, and the message used to state the
    /// bytes held.
    func testTheTextBudgetsRefusalDoesNotTellAMaskedTextsBytes() throws {
        func refusal(secret: String) throws -> String {
            let formd = try SpawnedFormd(["--max-total-text", "20"])
            formd.send(#"{"id":1,"method":"defineForm","params":{"fields":[{"id":"pw","secure":true},{"id":"a"}]}}"# + "\n")
            formd.send(#"{"id":2,"method":"setText","params":{"field":"pw","text":"\#(secret)"}}"# + "\n")
            formd.send(#"{"id":3,"method":"setText","params":{"field":"a","text":"\#(String(repeating: "x", count: 19))"}}"# + "\n")
            var answer = ""
            while let line = formd.readLine(timeout: 10) {
                if line.contains(#""id":3"#) { answer = line; break }
            }
            return answer
        }
        let ascii = try refusal(secret: "ab"), accented = try refusal(secret: "éé")
        XCTAssertTrue(ascii.contains("limit maxTotalText exceeded"), ascii)
        XCTAssertEqual(ascii, accented)
    }

    /// The issue's amplification: one 400 KB line giving a 400,000-character preset text
    /// to 2,000 fields (800 MB of text, 2.4 GB of memory once) is refused by the text
    /// budget before anything is built (1.6 GB of text and initial text, 8,890 of ids); so
    /// is the same form defined again and again.
    func testAPresetGivenToThousandsOfFieldsIsRefusedByTheTextBudget() throws {
        let formd = try SpawnedFormd([])
        let fields = (0..<2000).map { #"{"id":"f\#($0)","configuration":["big"]}"# }.joined(separator: ",")
        let define = #"{"id":1,"method":"defineForm","params":{"presets":{"big":{"text":"\#(String(repeating: "x", count: 400_000))"}},"fields":[\#(fields)]}}"#
        formd.send(define + "\n")
        let answer = try XCTUnwrap(formd.readLine(timeout: 60))
        XCTAssertTrue(answer.hasPrefix(#"{"jsonrpc":"2.0","id":1,"error":{"code":-32003,"message":"limit maxTotalText exceeded: this command would add 1600008890 bytes of text, more than the forms have room for (at most 67108864 in all"#), answer)
        let peak = try XCTUnwrap(formd.peakRSSKiB)
        XCTAssertLessThan(peak, 64 * 1024, "peak RSS \(peak) KiB")
        formd.closeStdin()
        XCTAssertEqual(WaitStatus.exitCode(try XCTUnwrap(formd.waitForExit())), 0)

        // Forms of 10 fields with a 20,000-byte preset text (400 KB each) fit until the
        // budget, here 1 MB, is spent.
        let small = try SpawnedFormd(["--max-total-text", "1000000"])
        let ten = (0..<10).map { #"{"id":"f\#($0)","configuration":["big"]}"# }.joined(separator: ",")
        var refusedAt: Int? = nil
        for n in 2..<6 {
            small.send(#"{"id":\#(n),"method":"defineForm","params":{"form":"f\#(n)","presets":{"big":{"text":"\#(String(repeating: "y", count: 20_000))"}},"fields":[\#(ten)]}}"# + "\n")
            var line = try XCTUnwrap(small.readLine())
            if line.contains(#""method":"formDefined""#) { line = try XCTUnwrap(small.readLine()) }
            if line.contains("limit maxTotalText exceeded") { refusedAt = n; break }
        }
        XCTAssertEqual(refusedAt, 4, "two forms fit in 1 MB, the third does not")
        small.closeStdin()
        XCTAssertEqual(WaitStatus.exitCode(try XCTUnwrap(small.waitForExit())), 0)
    }

    /// A batch's answers are bounded: once they pass `--max-line-output`, or a large
    /// `getState` counted first would take them past it, its remaining requests are refused
    /// without being carried out (20 `getState`s of a 65,000-field form answered 883 MB at
    /// 2.6 GB RSS once).
    func testABatchStopsAtMaxLineOutput() throws {
        let fields = (0..<200).map { #"{"id":"f\#($0)"}"# }.joined(separator: ",")
        let batch = (1...10).map { #"{"id":\#($0),"method":"getState"}"# }.joined(separator: ",")
            + #",{"method":"setText","params":{"field":"f0","text":"late"}}"#
        let out = try FormdProcess.run(["--max-line-output", "300000"], input: """
            {"id":0,"method":"defineForm","params":{"fields":[\(fields)]}}
            [\(batch)]
            {"id":11,"method":"getState"}

            """)
        XCTAssertEqual(out.status, 0, out.stderr)
        let messages = FormdProcess.messages(out)
        let answers = try XCTUnwrap(messages.first { $0["batch"] != nil }?["batch"] as? [[String: Any]])
        XCTAssertEqual(answers.count, 10)
        let stateSize = try XCTUnwrap(out.stdoutLines.first { $0.hasPrefix(#"{"jsonrpc":"2.0","id":11,"#) }).utf8.count
        // The answers so far are checked before each request, and a large state is counted
        // before it is written: the ones that fit are carried out, every later one is
        // refused (the first refused because it would not fit).
        let carriedOut = 300_000 / stateSize
        XCTAssertEqual(answers.filter { $0["result"] != nil }.count, carriedOut, "answers of \(stateSize) bytes")
        for refused in answers.dropFirst(carriedOut) {
            let error = refused["error"] as? [String: Any]
            XCTAssertEqual(error?["code"] as? Int, -32003)
            XCTAssertTrue((error?["message"] as? String)?.hasPrefix("limit maxLineOutput exceeded") == true, "\(refused)")
        }
        // The notification past the limit was not carried out either, and said so.
        XCTAssertTrue(messages.contains { $0["method"] as? String == "error" && ($0["params"] as? [String: Any])?["method"] as? String == "setText" })
        XCTAssertFalse(out.stdout.contains(#""text":"late""#))
    }

    /// Small requests with large answers, many to a read: the answers are written as they
    /// come, not gathered for the whole read (500 `getState` of a 100-field form are over
    /// 30 MB: peak memory was 45 MB before, 12 MB after).
    func testLargeAnswersDoNotPileUp() throws {
        let formd = try SpawnedFormd([])
        let fields = (0..<100).map { #"{"id":"field\#($0)"}"# }.joined(separator: ",")
        formd.send(#"{"id":0,"method":"defineForm","params":{"fields":[\#(fields)]}}"# + "\n")
        XCTAssertNotNil(formd.readLine())
        XCTAssertNotNil(formd.readLine())
        let requests = (1...500).map { #"{"id":\#($0),"method":"getState"}"# + "\n" }.joined()
        XCTAssertLessThan(requests.utf8.count, 60_000, "one read's worth")
        let writer = formd.sendInBackground(Array(requests.utf8))
        var answered = 0, bytes = 0
        while answered < 500, let line = formd.readLine(timeout: 60) {
            answered += 1
            bytes += line.utf8.count
        }
        XCTAssertEqual(answered, 500)
        XCTAssertEqual(writer.wait(timeout: .now() + 10), .success)
        let peak = try XCTUnwrap(formd.peakRSSKiB)
        XCTAssertLessThan(peak, 28 * 1024, "peak RSS \(peak) KiB for \(bytes / 1_000_000) MB of answers")
        formd.closeStdin()
        XCTAssertEqual(WaitStatus.exitCode(try XCTUnwrap(formd.waitForExit())), 0)
    }

    /// 50 MB on one line against a 1 MiB limit: drained, never held, answered to its id.
    func testAnOverlongLineIsDrainedNotBuffered() throws {
        let formd = try SpawnedFormd(["--max-line-bytes", "1048576"])
        formd.send(#"{"id":1,"method":"defineForm","params":{"fields":[{"id":"a"}]}}"# + "\n")
        XCTAssertNotNil(formd.readLine())
        XCTAssertEqual(formd.readLine(), #"{"jsonrpc":"2.0","id":1,"result":{}}"#)
        let writer = formd.sendInBackground(Array((#"{"id":"huge","method":"setText","params":{"field":"a","text":""#
            + String(repeating: "x", count: 50 << 20) + "\"}}\n" + #"{"id":2,"method":"validate"}"# + "\n").utf8))
        XCTAssertEqual(formd.readLine(timeout: 60),
                       #"{"jsonrpc":"2.0","id":"huge","error":{"code":-32003,"message":"limit maxLineBytes exceeded: line 2 is longer than 1048576 bytes (raise it with --max-line-bytes)"}}"#)
        XCTAssertEqual(formd.readLine(), #"{"jsonrpc":"2.0","id":2,"result":{"valid":true,"errors":[]}}"#)
        XCTAssertEqual(writer.wait(timeout: .now() + 10), .success)
        let peak = try XCTUnwrap(formd.peakRSSKiB)
        XCTAssertLessThan(peak, 32 * 1024, "peak RSS \(peak) KiB: the line was buffered")
        formd.send(#"{"id":3,"method":"getState"}"# + "\n")
        XCTAssertTrue(formd.readLine()?.contains(#""text":"""#) == true, "nothing of the refused line was applied")
        formd.closeStdin()
        XCTAssertEqual(WaitStatus.exitCode(try XCTUnwrap(formd.waitForExit())), 0)
    }

    /// A request refused for its line length or nesting is answered to its own id when
    /// the id can be read from the line's start; otherwise to null, as JSON-RPC says.
    func testLimitErrorsNameTheRequestWhenTheLineShowsIt() throws {
        let pad = String(repeating: "p", count: 300), longPad = String(repeating: "p", count: 600)
        let deep = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        let cases: [(String, String)] = [
            (#"{"id":7,"method":"setText","params":{"field":"a","text":"\#(pad)"}}"#, "7"),
            (#"  {"jsonrpc":"2.0", "method":"setText","id":"s\"q","params":{"text":"\#(pad)"}}"#, #""s\"q""#),
            (#"{"method":"setText","params":{"id":9,"text":"\#(pad)"}}"#, "null"),
            (#"{"method":"setText","params":{"text":"\#(pad)"},"id":8}"#, "8"),
            (#"{"method":"setText","params":{"text":"\#(longPad)"},"id":8}"#, "null"),
            (#"[{"id":10,"method":"setText","params":{"text":"\#(pad)"}}]"#, "null"),
            (#"{"id":{"x":1},"method":"setText","params":{"text":"\#(pad)"}}"#, "null"),
            (#"{"id":11,"method":"defineForm","params":{"fields":[{"id":"a","hints":{"k":\#(deep)}}]}}"#, "11"),
            (#"{"method":"defineForm","params":{"fields":\#(deep)},"id":12}"#, "12"),
            (deep, "null"),
        ]
        let out = try FormdProcess.run(["--max-line-bytes", "256", "--max-depth", "8"], input: cases.map { $0.0 + "\n" }.joined())
        XCTAssertEqual(out.stdoutLines.count, cases.count)
        for (line, (input, id)) in zip(out.stdoutLines, cases) {
            XCTAssertTrue(line.hasPrefix(#"{"jsonrpc":"2.0","id":\#(id),"error":{"code":-32003,"#), "\(input.prefix(60)) → \(line)")
        }
    }
}
