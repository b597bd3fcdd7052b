import FormdCore
import FormdJSON
@testable import FormdProtocol
@testable import FormdServer
import FormdTestSupport
import XCTest

/// A burst block's handled lines are emptied without the array's own destroy
/// (`freeSpent`): a line holding only inline or constant strings is left as it lies, any
/// other is destroyed in place. Checked by the strings' own reference counts.
final class SpentLinesFreeingTests: XCTestCase {
    func line(id: RequestID? = .number(JSONNumber(literal: "7")!), method: String = "insertText", form: String = "default",
              _ command: FormCommand) -> DecodedLine {
        .request(Envelope(id: id, method: method, .success(.form(form, command))))
    }

    /// Every keystroke kind, each with `long` in one of its strings or none.
    func lines(_ long: String) -> [DecodedLine] {
        [
            line(.insertText(field: "f1", text: "é")), line(.setText(field: "f1", text: "short")),
            line(.delete(field: nil)), line(.pressReturn(field: "f2")), line(.focusNext),
            line(.demandFocus(field: "f3", demand: .become)), line(.select(field: "f1", start: 0, end: 1)),
            line(.moveCaret(field: "f1", to: .end, extend: false)), line(.undo(field: "f1")), line(.redo(field: nil)), .blank,
            line(id: .string(long), .insertText(field: "f1", text: "a")), line(id: .number(JSONNumber(literal: String(repeating: "1", count: 20))!), .focusNext),
            line(method: long, .focusNext), line(form: long, .focusPrevious),
            line(.insertText(field: long, text: "a")), line(.insertText(field: "f1", text: long)),
            line(.setText(field: long, text: "")), line(.setText(field: "f1", text: long)),
            line(.delete(field: long)), line(.pressReturn(field: long)), line(.demandFocus(field: long, demand: .resign)),
            line(.getState(includeSecrets: false)),
            .unreadable(id: .null, ProtocolError(.parseError, long)), .batch([Envelope(id: nil, method: long, .failure(.invalidParams("x")))]),
        ]
    }

    func testLinesOfInlineStringsReleaseNothingAndOthersDo() {
        XCTAssertTrue(LineWords.layoutHolds, "strings, arrays and commands are laid out as the freeing expects here")
        let long = String(repeating: "x", count: 40) + "é"
        var all = lines(long)
        all.withUnsafeMutableBufferPointer { lines in
            for i in lines.indices {
                XCTAssertEqual(DecodedLine.releasesNothing(lines.baseAddress! + i), i <= 10, "line \(i)")
            }
        }
    }

    /// How `list` orders the lines: those holding nothing to release first, last, or all
    /// but one of those holding something last.
    enum Order: CaseIterable { case inlineFirst, inlineLast, oneLongFirst }

    /// The lines of `lines(long)` in `order`.
    func list(_ long: String, _ order: Order) -> [DecodedLine] {
        let made = lines(long)
        var list: [DecodedLine] = []
        list.reserveCapacity(64)
        switch order {
        case .inlineFirst: list.append(contentsOf: made)
        case .inlineLast: list.append(contentsOf: Array(made[11...]) + Array(made[..<11]))
        case .oneLongFirst: list.append(contentsOf: [made[11]] + Array(made[..<11]) + Array(made[12...]))
        }
        return list
    }

    /// Every line holding a fresh string, with inline lines around it, freed: every
    /// reference the lines took is gone, and the list is empty with its room kept; whether
    /// it is emptied in place (most of its first lines hold nothing, the first one or not)
    /// or the ordinary way.
    func testSpentLinesAreFreedAndTheListEmptied() {
        for order in Order.allCases {
            let long = String(repeating: "y", count: 30) + "é"
            var spent = list(long, order)
            let held = storageReferences(long)
            let capacity = spent.capacity
            spent.freeSpent()
            XCTAssertEqual(spent.count, 0)
            XCTAssertEqual(spent.capacity, capacity, "the list keeps its room for a later block")
            let after = storageReferences(long)  // counted outside the assertion, whose closure holds one more
            XCTAssertEqual(after, held - 12, "\(order): the references of the twelve lines holding it are let go")
        }
    }

    func testTheEmptiedListTakesLinesAgain() {
        var spent = list("f1", .inlineFirst)
        spent.freeSpent()
        spent.append(line(.setText(field: "f2", text: "again")))
        XCTAssertEqual(spent.count, 1)
        guard case .request(let envelope) = spent[0], case .success(.form("default", .setText("f2", "again"))) = envelope.call else {
            return XCTFail("the line appended after emptying")
        }
    }
}
