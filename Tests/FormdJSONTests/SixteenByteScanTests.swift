import FormdBytes
import FormdTestSupport
import XCTest
@testable import FormdJSON

/// The string scans that look at sixteen or thirty-two bytes at a time (`CFormdStrings`)
/// against byte-by-byte references: every byte value at every place of runs long enough
/// to take each of their turns (the 32-byte one, the 16-byte one, the overlapping last).
final class SixteenByteScanTests: XCTestCase {
    /// Lengths around each turn's edge.
    static let lengths = Array(0...40) + [47, 48, 49, 63, 64, 65, 95, 96, 97, 129, 200]

    func testEveryASCIIByteAtEveryPlaceIsQuotedAsTheReference() {
        var w = JSONWriter(reservingCapacity: 1)
        for length in Self.lengths where length > 0 {
            for position in 0..<length {
                for byte in UInt8(0)..<0x80 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = byte
                    let s = String(decoding: bytes, as: UTF8.self)
                    w.removeAll()
                    w.writeString(s)
                    XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), referenceQuoted(s), "\(length) \(position) \(byte)")
                }
            }
        }
    }

    func testRandomTextsWithAFewSpecialsAreQuotedAsTheReference() {
        var rng = SplitMix64(seed: 0x5CA9)
        let pieces = ["a", " ", "!", "#", "\"", "\\", "\n", "\u{1}", "\u{1F}", "\u{20}", "\u{7F}", "é", "中", "👍", "\u{2028}"]
        var w = JSONWriter(reservingCapacity: 1)
        for _ in 0..<5_000 {
            let count = rng.next(below: 120)
            let s = (0..<count).map { _ in rng.next(below: 8) == 0 ? pieces[rng.next(below: pieces.count)] : "x" }.joined()
            w.removeAll()
            w.writeString(s)
            XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), referenceQuoted(s), s.debugDescription)
        }
    }

    /// Where a plain string ends as a byte-by-byte reading finds it: its quote, or nil at an
    /// escape, a control character, a non-ASCII byte or the end.
    func referenceEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        for i in start..<bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { return i }
            if b < 0x20 || b >= 0x80 || b == UInt8(ascii: "\\") { return nil }
        }
        return nil
    }

    func testThePlainStringEndIsWhereAByteByByteReadingStops() {
        for length in Self.lengths {
            for position in 0...length {
                for byte in [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xC3, 0xFF] as [UInt8] {
                    var bytes = [UInt8](repeating: UInt8(ascii: "b"), count: length)
                    if position < length { bytes[position] = byte }
                    bytes.withUnsafeBufferPointer { buffer in
                        guard let base = buffer.baseAddress else { return }
                        // From the start, and from a few bytes in: the runs start anywhere.
                        for start in [0, 1, 3].filter({ $0 <= length }) {
                            let found = SWAR.plainStringEnd(base + start, base + length).map { $0 - base }
                            XCTAssertEqual(found, referenceEnd(buffer, from: start), "\(length) \(position) \(byte) \(start)")
                        }
                    }
                }
            }
        }
    }
}
