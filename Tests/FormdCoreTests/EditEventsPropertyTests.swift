import FormdTestSupport
import XCTest
@testable import FormdCore

/// What a client sees of the edit path's shortcuts (`TextBuffer+ASCIIEdits.swift`,
/// `TextBuffer+KnownEdits.swift`): random typing at the end, Backspace and `setText` on texts
/// of plain, several-byte and combining characters, emoji with skin tones and every clustering
/// hazard, short and long, run through the engine in each position encoding. Each
/// `textChanged` edit, applied in the client's units to the text it had, gives the field's
/// new text; it lies on character boundaries; its length and caret are the new text's.
final class EditEventsPropertyTests: XCTestCase {
    static let pieces = ["a", "b", " ", "é", "日", "👍", "\u{301}", "\u{1F3FD}", "ß", "\u{FE0F}", "🇫", "🇷", "\u{200D}", "\r", "\n",
                         "\u{915}", "\u{94D}", "각", "\u{1100}", "e\u{301}"]

    func text(_ rng: inout SplitMix64, pieces: Int) -> String {
        // Mostly the common characters, as typed text is; hazards one piece in five.
        (0..<pieces).map { _ in Self.pieces[rng.next(below: rng.next(below: 5) == 0 ? Self.pieces.count : 9)] }.joined()
    }

    func testEditsAppliedInEachEncodingGiveTheNewText() throws {
        for encoding in PositionEncoding.allCases {
            var rng = SplitMix64(seed: 0xED17 &+ UInt64(encoding.rawValue.utf8.count))
            var engine = FormEngine()
            _ = try engine.perform(.defineForm(fields: plainFields("a"), presets: [:]))
            var client = ""
            for step in 0..<1_500 {
                let command: FormCommand
                switch rng.next(below: 4) {
                case 0: command = .setText(field: "a", text: text(&rng, pieces: rng.next(below: rng.next(below: 6) == 0 ? 120 : 10)))
                case 1: command = .delete(field: "a")
                default: command = .insertText(field: "a", text: text(&rng, pieces: 1 + rng.next(below: 2)))
                }
                let outcome = try engine.perform(command, encoding: encoding)
                for record in outcome.events {
                    guard case .textChanged(_, let new?, let length, let edit, let selection) = record.event else { continue }
                    let context = "\(encoding) step \(step): \(client.debugDescription) \(command)"
                    let boundaries = Self.boundaries(client, encoding)
                    XCTAssertTrue(boundaries.contains(edit.start) && boundaries.contains(edit.end), context)
                    guard let lo = Self.index(client, edit.start, encoding), let hi = Self.index(client, edit.end, encoding) else {
                        return XCTFail(context)
                    }
                    client = String(client[..<lo]) + edit.text + String(client[hi...])
                    XCTAssertEqual(Array(client.utf8), Array(new.utf8), context)
                    XCTAssertEqual(length, new.count, context)
                    XCTAssertEqual(selection, TextRange(start: Self.boundaries(new, encoding).last!, end: Self.boundaries(new, encoding).last!), context)
                }
                guard case .state(let state) = try engine.perform(.getState(includeSecrets: false)).result else { return XCTFail() }
                XCTAssertEqual(Array((state.fields[0].text ?? "").utf8), Array(client.utf8), "\(encoding) step \(step)")
            }
        }
    }

    /// The character boundaries of `text`, in `encoding`'s units.
    static func boundaries(_ text: String, _ encoding: PositionEncoding) -> [Int] {
        var i = text.startIndex, out = [0]
        while i < text.endIndex {
            i = text.index(after: i)
            out.append(encoding.measure(text[..<i]))
        }
        return out
    }

    /// The index `position` units of `encoding` into `text`.
    static func index(_ text: String, _ position: Int, _ encoding: PositionEncoding) -> String.Index? {
        switch encoding {
        case .character: text.index(text.startIndex, offsetBy: position, limitedBy: text.endIndex)
        case .utf8: text.utf8.index(text.startIndex, offsetBy: position, limitedBy: text.endIndex)
        case .utf16: text.utf16.index(text.startIndex, offsetBy: position, limitedBy: text.endIndex)
        case .utf32: text.unicodeScalars.index(text.startIndex, offsetBy: position, limitedBy: text.endIndex)
        }
    }
}
