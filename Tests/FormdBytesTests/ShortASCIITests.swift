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
