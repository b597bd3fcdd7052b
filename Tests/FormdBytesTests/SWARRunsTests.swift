import FormdTestSupport
import XCTest
@testable import FormdBytes

/// The word-at-a-time runs (`SWAR+Runs.swift`) against byte-by-byte counts.
final class SWARRunsTests: XCTestCase {
    func testCommonPrefixAndSuffixCountWhatAByteLoopCounts() {
        var rng = SplitMix64(seed: 0x2F1)
        for _ in 0..<5_000 {
            // Mostly equal bytes, so runs of every length end anywhere in a word.
            let count = rng.next(below: 40)
            let a = (0..<count).map { _ in UInt8(rng.next(below: 256)) }
            var b = a
            for _ in 0..<rng.next(below: 3) where count > 0 { b[rng.next(below: count)] = UInt8(rng.next(below: 256)) }
            let prefix = zip(a, b).prefix { $0 == $1 }.count
            let suffix = zip(a.reversed(), b.reversed()).prefix { $0 == $1 }.count
            a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { pb in
                    guard let x = pa.baseAddress, let y = pb.baseAddress else { return }
                    XCTAssertEqual(SWAR.commonPrefix(x, y, count: count), prefix)
                    XCTAssertEqual(SWAR.commonSuffix(x + count, y + count, count: count), suffix)
                }
            }
        }
    }

    func testEqualTellsWhatAByteLoopTells() {
        var rng = SplitMix64(seed: 0x2F3)
        for _ in 0..<5_000 {
            let count = 8 + rng.next(below: 72)
            let a = (0..<count).map { _ in UInt8(rng.next(below: 256)) }
            var b = a
            // Half the time one byte differs, anywhere (the overlapping last word included).
            if rng.next(below: 2) == 0 { b[rng.next(below: count)] ^= UInt8(1 + rng.next(below: 255)) }
            a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { pb in
                    XCTAssertEqual(SWAR.equal(pa.baseAddress!, pb.baseAddress!, count: count), a == b, "\(count) bytes")
                }
            }
        }
    }

    func testScalarCountCountsTheLibrarysScalars() {
        var rng = SplitMix64(seed: 0x2F2)
        let pieces = ["a", "é", "日", "👍", "\u{301}", "\u{10FFFF}", "\u{7F}", "\u{80}"]
        for _ in 0..<3_000 {
            let text = (0..<rng.next(below: 30)).map { _ in pieces[rng.next(below: pieces.count)] }.joined()
            let counted = text.utf8.withContiguousStorageIfAvailable { SWAR.scalarCount($0.baseAddress!, count: $0.count) }
            XCTAssertEqual(counted, text.unicodeScalars.count, text.debugDescription)
        }
    }
}
