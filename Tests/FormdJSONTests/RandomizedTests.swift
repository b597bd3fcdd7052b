import FormdTestSupport
import XCTest
@testable import FormdJSON

/// Seeded random inputs: the word-at-a-time scanners against naive references, and
/// mutated documents against crashes.
final class RandomizedTests: XCTestCase {
    static let palette: [String] = ["a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}",
                                    "é", "e\u{301}", "中", "😀", "👍🏽", "\u{2028}", "\u{FFFD}", "\u{10FFFF}"]

    func randomString(_ rng: inout SplitMix64) -> String {
        let length = Int.random(in: 0...40, using: &rng)
        var s = ""
        for _ in 0..<length { s += Self.palette.randomElement(using: &rng)! }
        return s
    }

    func testWriterMatchesReferenceEscaper() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<5000 {
            let s = randomString(&rng)
            var writer = JSONWriter()
            writer.writeString(s)
            XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), referenceQuoted(s), s.debugDescription)
        }
    }

    func testParserInvertsWriterAndReferenceEscaper() throws {
        var rng = SplitMix64(seed: 2)
        for _ in 0..<5000 {
            let s = randomString(&rng)
            XCTAssertEqual(try JSONParser.parse(referenceQuoted(s)), .string(s), s.debugDescription)
            // Embedded in a document, where the string is not at the end of the input.
            XCTAssertEqual(try JSONParser.parse("[" + referenceQuoted(s) + ",0]"), [.string(s), 0])
        }
    }

    func testAllEscapesDecodeToTheirScalars() throws {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<2000 {
            var expected = ""
            var text = "\""
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                let value = UInt32.random(in: 0...0x10FFFF, using: &rng)
                guard let scalar = UnicodeScalar(value) else { continue }
                expected.unicodeScalars.append(scalar)
                if value < 0x10000 {
                    text += "\\u" + String(format4: value)
                } else {
                    let v = value - 0x10000
                    text += "\\u" + String(format4: 0xD800 + (v >> 10)) + "\\u" + String(format4: 0xDC00 + (v & 0x3FF))
                }
            }
            text += "\""
            XCTAssertEqual(try JSONParser.parse(text), .string(expected), text)
        }
    }

    func testMutatedDocumentsNeverCrash() {
        let seeds = [
            #"{"jsonrpc":"2.0","id":17,"method":"setText","params":{"form":"default","field":"email","text":"hello world"}}"#,
            #"[1,-0.5e+3,true,false,null,"\u00e9\n",{"a":[{}]},"中😀"]"#,
        ].map { Array($0.utf8) }
        let interesting: [UInt8] = [0x00, 0x22, 0x5C, 0x5B, 0x5D, 0x7B, 0x7D, 0x2C, 0x3A, 0x20, 0x30, 0x2D, 0x65, 0x75,
                                    0x80, 0xBF, 0xC0, 0xC3, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF]
        var rng = SplitMix64(seed: 4)
        var accepted = 0
        for i in 0..<20_000 {
            var bytes = seeds[i % seeds.count]
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[at] = interesting.randomElement(using: &rng)!
                case 1: bytes.remove(at: at)
                default: bytes.insert(interesting.randomElement(using: &rng)!, at: at)
                }
                if bytes.isEmpty { break }
            }
            do {
                let value = try JSONParser.parse(bytes)
                accepted += 1
                // Whatever was accepted must survive a write/parse cycle.
                XCTAssertEqual(try JSONParser.parse(JSONWriter.serialize(value)), value)
            } catch {
                XCTAssertGreaterThanOrEqual(error.offset, 0)
                XCTAssertLessThanOrEqual(error.offset, bytes.count)
                XCTAssertTrue(error.message.hasSuffix("at byte \(error.offset)"))
            }
        }
        XCTAssertGreaterThan(accepted, 0)
    }
}

private extension String {
    /// Four uppercase hex digits.
    init(format4 value: UInt32) {
        let hex = String(value, radix: 16, uppercase: true)
        self = String(repeating: "0", count: 4 - hex.count) + hex
    }
}
