import FormdTestSupport
import XCTest
@testable import FormdBytes

/// Strings made from their bytes (`ShortASCII`) against the standard library's, and the
/// padded word loads both it and the compact decoder use.
final class ShortASCIITests: XCTestCase {
    func testTheLayoutCheckHoldsOnThisPlatform() {
        // If it ever fails, strings are still right (the library makes them) but slower:
        // this test says so rather than letting the fast path vanish unnoticed.
        XCTAssertTrue(ShortASCII.layoutHolds)
    }

    func testEveryLengthAndByteMakesTheLibrarysString() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<4000 {
            let count = rng.next(below: 24)
            // Printable ASCII and DEL, plus the control bytes the decoder never passes but
            // the string must still hold faithfully.
            let bytes = (0..<count).map { _ in UInt8(rng.next(below: 128)) }
            let expected = String(decoding: bytes, as: UTF8.self)
            let made = bytes.withUnsafeBufferPointer { ShortASCII.string($0.baseAddress!, count: count) }
            XCTAssertEqual(made, expected)
            XCTAssertEqual(Array(made.utf8), bytes)
            XCTAssertEqual(made.count, expected.count)
            XCTAssertEqual(made.hashValue, expected.hashValue)
            // Used like any other string: appended to, compared, sliced.
            XCTAssertEqual(made + "x", expected + "x")
            XCTAssertEqual(made.dropFirst().description, expected.dropFirst().description)
        }
    }

    func testPaddedLoadsReadOnlyTheirBytes() {
        // The bytes sit at the very end of an allocation so any read past them would be
        // out of bounds (and caught by the sanitizer run of the fuzzer).
        for count in 0...16 {
            let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
            defer { bytes.deallocate() }
            for i in 0..<count { bytes[i] = UInt8(i + 1) }
            let (low, high) = SWAR.loadPadded(UnsafePointer(bytes), count: count)
            for i in 0..<16 {
                let byte = UInt8(truncatingIfNeeded: (i < 8 ? low : high) >> (8 * UInt64(i % 8)))
                XCTAssertEqual(byte, i < count ? UInt8(i + 1) : 0, "count \(count), byte \(i)")
            }
        }
    }
}

/// Strings of valid UTF-8 made from their bytes (`ShortUTF8`) against the library's.
final class ShortUTF8Tests: XCTestCase {
    func testTheLayoutCheckHoldsOnThisPlatform() {
        XCTAssertTrue(ShortUTF8.layoutHolds)
    }

    func testEveryLengthMakesTheLibrarysString() {
        var rng = SplitMix64(seed: 12)
        let pieces = ["a", "é", "日", "👍", "\u{301}", "e\u{301}", "\u{10FFFF}", "\u{7F}", "\u{80}", " ", "\u{0}"]
        for _ in 0..<4000 {
            let text = (0..<rng.next(below: 8)).map { _ in pieces[rng.next(below: pieces.count)] }.joined()
            let bytes = Array(text.utf8)
            let made = bytes.withUnsafeBufferPointer { b in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, b.count)) { t in
                    _ = t.initialize(from: b)
                    return ShortUTF8.string(validUTF8: UnsafePointer(t.baseAddress!), count: b.count)
                }
            }
            let expected = String(decoding: bytes, as: UTF8.self)
            XCTAssertEqual(Array(made.utf8), bytes)
            XCTAssertEqual(made, expected)
            XCTAssertEqual(made.count, expected.count)
            XCTAssertEqual(made.unicodeScalars.count, expected.unicodeScalars.count)
            XCTAssertEqual(made.hashValue, expected.hashValue)
            XCTAssertEqual(made.utf16.count, expected.utf16.count)
            XCTAssertEqual(made + "x", expected + "x")
            if bytes.count <= 15 {
                // Held inline, with the very words the library gives.
                XCTAssertTrue(unsafeBitCast(made, to: (UInt64, UInt64).self) == unsafeBitCast(expected, to: (UInt64, UInt64).self), text.debugDescription)
            }
        }
    }
}
