import FormdTestSupport
import XCTest
@testable import FormdJSON

/// `ScannedString.string(inLineFrom:)` reads a short string as the two words that end where
/// it ends; it must make the very string `string` makes, at every length and every place
/// in its line, ASCII or not.
final class ScannedStringTests: XCTestCase {
    /// `scan` finds a plain string's end sixteen and eight bytes at a time and hands
    /// anything else to the parser's own scan (`scanValidating`): for strings of every
    /// length up to 80 with a byte of every class at every place (a quote, a backslash,
    /// control characters, DEL, bytes beyond ASCII valid or not) and runs of text after
    /// it, the two give the same string, the same quote, the same ASCII flag.
    func testScanFindsWhatTheParsersScanFinds() {
        var rng = SplitMix64(seed: 0x5CA9)
        let plain = Array("abcxyz 019~!#/:[]{}".utf8)
        let odd: [[UInt8]] = [[0x22], [0x5C], [0x5C, 0x22], [0x00], [0x1F], [0x09], [0x0A], [0x20], [0x21], [0x23], [0x5B], [0x5D],
                              [0x7F], [0x80], [0xC3, 0xA9], [0xE6, 0x97, 0xA5], [0xF0, 0x9F, 0x91, 0x8D], [0xC3], [0xFF], [0xED, 0xA0, 0x80]]
        for length in 0...80 {
            for _ in 0..<60 {
                var bytes = (0..<length).map { _ in plain[rng.next(below: plain.count)] }
                if rng.next(below: 4) != 0 { bytes.insert(contentsOf: odd[rng.next(below: odd.count)], at: rng.next(below: bytes.count + 1)) }
                if rng.next(below: 3) != 0 { bytes.append(0x22) }
                bytes += (0..<rng.next(below: 20)).map { _ in plain[rng.next(below: plain.count)] }
                bytes.withUnsafeBufferPointer { all in
                    let p = all.baseAddress!, end = p + all.count
                    let fast = ScannedString.scan(p, end), slow = ScannedString.scanValidating(p, end)
                    XCTAssertEqual(fast?.quote, slow?.quote, "\(bytes)")
                    XCTAssertEqual(fast?.0.bytes.count, slow?.0.bytes.count, "\(bytes)")
                    XCTAssertEqual(fast?.0.isASCII, slow?.0.isASCII, "\(bytes)")
                }
            }
        }
    }

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
