import FormdServer
import XCTest

/// `Daemon.namedField(of:)` finds the field every command that names one by id names, so
/// the stdio loop can look it up ahead; and nothing for any other line.
final class NamedFieldTests: XCTestCase {
    func named(_ line: String) -> (form: String, field: String)? {
        var decoded = Array(line.utf8).withUnsafeBytes { DecodedLine($0, limits: SessionLimits()) }
        return withUnsafePointer(to: &decoded) { Daemon.namedField(of: $0) }
    }

    func testEveryCommandNamingAFieldNamesIt() {
        let params = [
            "insertText": #""text":"x""#, "delete": #""unit":"word""#, "select": #""start":0,"end":0"#,
            "moveCaret": #""to":"end""#, "editAction": #""action":"copy""#, "undo": "", "redo": "",
            "pressReturn": "", "setText": #""text":"x""#, "demandFocus": #""demand":"become""#,
        ]
        for (method, rest) in params {
            let line = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":{"form":"login","field":"f7""# + (rest.isEmpty ? "" : "," + rest) + "}}"
            let found = named(line)
            XCTAssertEqual(found?.form, "login", line)
            XCTAssertEqual(found?.field, "f7", line)
        }
        XCTAssertEqual(named(#"{"id":1,"method":"demandFocus","params":{"field":"a","demand":"resign"}}"#)?.form, "default")
    }

    func testOtherLinesNameNone() {
        for line in [#"{"id":1,"method":"insertText","params":{"text":"x"}}"#, #"{"id":1,"method":"focusNext"}"#,
                     #"{"id":1,"method":"removeField","params":{"field":"a"}}"#, #"{"id":1,"method":"demandFocus","params":{"field":"a"}}"#,
                     "not json", ""] {
            XCTAssertNil(named(line), line)
        }
    }
}
