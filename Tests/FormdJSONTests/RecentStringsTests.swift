import Foundation
import FormdTestSupport
import XCTest
@testable import FormdJSON

/// `RecentStrings` hands out the very string its bytes make, whether it held it or not:
/// ids far more than its slots, ids that differ in one byte or only in length, UTF-8
/// beyond ASCII, and threads each with their own; strings that pick the same set of slots
/// are all kept up to its size, one more evicts the oldest.
final class RecentStringsTests: XCTestCase {
    static func made(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { RecentStrings.string(validUTF8: $0.baseAddress!, count: $0.count) }
    }

    func testEveryStringIsTheOneItsBytesMake() {
        var rng = SplitMix64(seed: 0x5EC0)
        let pieces = ["customer.address.line", "é", "日本", "👍🏽", "-", "0", "x"]
        var ids: [[UInt8]] = []
        for i in 0..<2_000 {
            var text = ""
            while text.utf8.count < 16 + rng.next(below: 49) { text += pieces[rng.next(below: pieces.count)] }
            while text.utf8.count > RecentStrings.maxBytes { text.removeLast() }
            guard text.utf8.count >= 16 else { continue }
            ids.append(Array(text.utf8))
            // A neighbour differing in its last byte, and one a byte shorter.
            if i % 3 == 0, var other = ids.last, other.last! < 0x7F {
                other[other.count - 1] ^= 1
                ids.append(other)
                if other.count > 16, other[other.count - 2] < 0x80 { ids.append(Array(other.dropLast())) }
            }
        }
        for _ in 0..<20_000 {
            let id = ids[rng.next(below: rng.next(below: 4) == 0 ? ids.count : 40)]
            let string = Self.made(id)
            XCTAssertEqual(Array(string.utf8), id)
            XCTAssertEqual(string, String(decoding: id, as: UTF8.self))
        }
    }

    /// The same storage, not only equal bytes.
    static func same(_ a: String, _ b: String) -> Bool {
        unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self)
    }

    func testStringsPickingOneSetAreAllKeptAndOneMoreEvictsTheOldest() {
        // One more id than a set holds, all of one set, found by trying ids as a client
        // names them.
        var bySet: [Int: [[UInt8]]] = [:]
        var n = 0
        var ids: [[UInt8]] = []
        while ids.isEmpty {
            let id = Array("customer.address.line\(n)-of-a-set-test".utf8)
            n += 1
            let set = id.withUnsafeBufferPointer { RecentStrings.set(of: RecentStrings.mix($0.baseAddress!, count: id.count)) }
            bySet[set, default: []].append(id)
            if bySet[set]!.count == RecentStrings.ways + 1 { ids = bySet[set]! }
        }
        let kept = ids.dropLast()
        let first = kept.map(Self.made)
        for _ in 0..<3 {
            for (id, string) in zip(kept, first) { XCTAssertTrue(Self.same(Self.made(id), string)) }
        }
        // One more goes in; the oldest goes, the others stay.
        let last = Self.made(ids.last!)
        XCTAssertEqual(Array(last.utf8), ids.last!)
        XCTAssertTrue(Self.same(Self.made(ids.last!), last))
        for (id, string) in zip(kept, first).dropFirst() { XCTAssertTrue(Self.same(Self.made(id), string)) }
        let again = Self.made(kept.first!)
        XCTAssertEqual(again, first[0])
        XCTAssertFalse(Self.same(again, first[0]), "the oldest was evicted: made anew")
    }

    func testEachThreadHasItsOwn() {
        let ids = (0..<300).map { Array("a-long-field-id-number-\($0)".utf8) }
        let group = DispatchGroup()
        let wrong = Counter()
        for t in 0..<4 {
            group.enter()
            Thread {
                for round in 0..<5_000 {
                    let id = ids[(round * 7 + t * 13) % ids.count]
                    if Array(Self.made(id).utf8) != id { wrong.add() }
                }
                group.leave()
            }.start()
        }
        group.wait()
        XCTAssertEqual(wrong.value, 0)
    }
}

/// A count several threads add to.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
