import FormdTestSupport
import XCTest
@testable import FormdJSON

/// `ScannedString.string(inLineFrom:)` reads a short string as the two words that end where
/// it ends; it must make the very string `string` makes, at every length and every place
/// in its line, ASCII or not.
final class ScannedStringTests: XCTestCase {
    func testEveryLengthAtEveryPlaceMakesTheSameString() {
        var rng = SplitMix64(seed: 0x51C3)
        let pieces = ["a", "Z", "0", " ", "é", "ß", "日", "👍", "\u{301}", "~"]
        for _ in 0..<3_000 {
            var text = ""
            let length = rng.next(below: 20)
            while text.utf8.count < length { text += pieces[rng.next(below: pieces.count)] }
            let lead = rng.next(below: 24), tail = rng.next(below: 4)
            let line = Array(repeating: UInt8(ascii: "x"), count: lead) + Array(text.utf8) + Array(repeating: UInt8(ascii: "\""), count: tail)
            line.withUnsafeBufferPointer { all in
                let value = ScannedString(bytes: UnsafeBufferPointer(rebasing: all[lead..<(lead + text.utf8.count)]),
                                          isASCII: text.utf8.allSatisfy { $0 < 0x80 })
                let made = value.string(inLineFrom: all.baseAddress!)
                XCTAssertEqual(made, text)
                XCTAssertEqual(Array(made.utf8), Array(text.utf8))
                XCTAssertEqual(made, value.string)
            }
        }
    }
}
