import Foundation
import XCTest

/// A client that edits a masked field, guessing, learns nothing but its length: formd's
/// whole output for a guessing session is the same byte for byte whatever the hidden text.
final class SecretOracleTests: XCTestCase {
    /// Every position tried with every guess (select one character, type the guess, undo),
    /// whole-text guesses with setText, then a new pattern and validate.
    func guessingSession(hidden: String) -> [String] {
        var lines = [#"{"id":0,"method":"defineForm","params":{"fields":[{"id":"pw","secure":true,"text":"\#(hidden)"}]}}"#]
        var id = 1
        func send(_ method: String, _ params: String) {
            lines.append(#"{"id":\#(id),"method":"\#(method)","params":{"field":"pw"\#(params)}}"#)
            id += 1
        }
        for position in 0..<hidden.count {
            for guess in ["a", "b", "c", "x"] {
                send("select", #","start":\#(position),"end":\#(position + 1)"#)
                send("insertText", #","text":"\#(guess)""#)
                send("undo", "")
            }
        }
        for guess in ["abc", "xbz", "bbb"] {
            send("setText", #","text":"\#(guess)""#)
            send("undo", "")
        }
        send("configureField", #","pattern":"a.*""#)
        send("configureField", #","inputFilter":"[a-c]""#)
        send("configureField", #","pattern":"b.*","text":"42""#)
        send("undo", "")
        send("validate", "")
        return lines
    }

    func testAGuessingSessionsOutputDoesNotDependOnTheHiddenText() throws {
        var outputs: [String: String] = [:]
        for hidden in ["abc", "xbz", "bbb", "zzz"] {
            let out = try FormdProcess.run([], input: guessingSession(hidden: hidden).map { $0 + "\n" }.joined())
            XCTAssertEqual(out.status, 0, out.stderr)
            XCTAssertFalse(out.stdout.contains(hidden), "the hidden text itself is never shown")
            outputs[hidden] = out.stdout
        }
        for (hidden, stdout) in outputs {
            XCTAssertEqual(stdout, outputs["abc"], "the output for \(hidden) differs from that for abc")
        }
    }
}
