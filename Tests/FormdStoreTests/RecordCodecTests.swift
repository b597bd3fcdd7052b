import FormdTestSupport
import FormdJSON
@testable import FormdStore
import XCTest

/// The framing: checksums, and a torn or damaged tail found wherever it starts.
final class RecordCodecTests: XCTestCase {
    func testCRC32KnownValues() {
        XCTAssertEqual(CRC32.checksum(""), 0)
        XCTAssertEqual(CRC32.checksum("123456789"), 0xCBF4_3926)
        XCTAssertEqual(CRC32.checksum("The quick brown fox jumps over the lazy dog"), 0x414F_A339)
        XCTAssertEqual(CRC32.checksum([0, 0, 0, 0]), 0x2144_DF1C)
    }

    func testCRC32MatchesBitwiseReferenceAtEveryLengthAndSplit() {
        func reference(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return ~c
        }
        var rng = SplitMix64(seed: 1)
        for length in 0..<80 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            XCTAssertEqual(CRC32.checksum(bytes), reference(bytes), "length \(length)")
            let split = length / 3
            let first = bytes[..<split].withUnsafeBytes { CRC32.update(0, $0) }
            XCTAssertEqual(bytes[split...].withUnsafeBytes { CRC32.update(first, $0) }, reference(bytes))
        }
    }

    func testRecordsRoundTrip() {
        let values: [JSONValue] = [["t": "a", "n": 1], ["text": "line\nbreak \u{0} \"quoted\" é 👩‍👩‍👧", "x": [true, nil]], ["t": "z"]]
        var w = JSONWriter()
        for v in values { RecordCodec.append(v, to: &w) }
        let scan = RecordCodec.scan(w.bytes, maxDepth: 64)
        XCTAssertNil(scan.damage)
        XCTAssertEqual(scan.validLength, w.bytes.count)
        XCTAssertEqual(scan.records.map { JSONValue.object($0) }, values)
        XCTAssertEqual(w.bytes.filter { $0 == UInt8(ascii: "\n") }.count, values.count, "one line per record")
    }

    /// A record streamed in pieces (a large form's, in the journal or the snapshot) is the
    /// record `append` writes, byte for byte, whatever the pieces' size; and a failing sink
    /// stops it with that failure.
    func testAStreamedRecordIsTheRecordWrittenWhole() throws {
        let fields: [JSONValue] = (0..<40).map { i in ["id": .string("f\(i)"), "text": .string(String(repeating: "é\"\n", count: i * 50)), "x": [true, nil]] }
        let records: [JSONObject] = [
            JSONObject([.init(key: "t", value: "form"), .init(key: "fields", value: .array(fields)), .init(key: "seq", value: 3),
                        .init(key: "empty", value: []), .init(key: "nested", value: ["a": [1, 2]])]),
            JSONObject([.init(key: "t", value: "end")]),
            JSONObject(),
        ]
        for record in records {
            let whole = RecordCodec.encode(.object(record))
            for pieceBytes in [1, 100, 1 << 16] {
                var pieces: [[UInt8]] = []
                let size = try RecordCodec.stream(record, pieceBytes: pieceBytes) { pieces.append(Array($0)) }
                XCTAssertEqual(pieces.flatMap { $0 }, whole, "pieces of \(pieceBytes) bytes")
                XCTAssertEqual(size, whole.count)
                if pieceBytes == 1 && record.members.count > 2 { XCTAssertGreaterThan(pieces.count, fields.count, "handed over in pieces") }
            }
        }
        var calls = 0
        XCTAssertThrowsError(try RecordCodec.stream(records[0], pieceBytes: 1) { _ throws(Posix.Failure) in
            calls += 1
            if calls == 3 { throw Posix.Failure("cannot write the test sink", EIO) }
        })
        XCTAssertEqual(calls, 3, "nothing handed over after the failure")
    }

    func testATornLastRecordIsDroppedAtEveryByteOffset() {
        var w = JSONWriter()
        RecordCodec.append(["t": "first", "text": "kept"], to: &w)
        RecordCodec.append(["t": "second", "text": "kept too"], to: &w)
        let good = w.bytes.count
        RecordCodec.append(["t": "third", "text": "torn somewhere in here ✂︎"], to: &w)
        for cut in good..<w.bytes.count {
            let scan = RecordCodec.scan(Array(w.bytes[..<cut]), maxDepth: 64)
            XCTAssertEqual(scan.records.count, 2, "cut at \(cut)")
            XCTAssertEqual(scan.validLength, good)
            XCTAssertEqual(scan.damage?.offset, cut == good ? nil : good, "cut at \(cut)")
        }
        XCTAssertEqual(RecordCodec.scan(w.bytes, maxDepth: 64).records.count, 3)
    }

    func testEveryCorruptedByteOfTheLastRecordIsCaught() {
        var w = JSONWriter()
        RecordCodec.append(["t": "first"], to: &w)
        let good = w.bytes.count
        RecordCodec.append(["t": "second", "text": "flip me"], to: &w)
        for i in good..<w.bytes.count {
            for flip: UInt8 in [0x01, 0x20, 0x80] {
                var bytes = w.bytes
                bytes[i] ^= flip
                let scan = RecordCodec.scan(bytes, maxDepth: 64)
                XCTAssertEqual(scan.records.count, 1, "byte \(i) ^ \(flip)")
                XCTAssertEqual(scan.damage?.offset, good, "byte \(i) ^ \(flip)")
            }
        }
    }

    func testZeroFilledAndGarbageTailsAreDamage() {
        var w = JSONWriter()
        RecordCodec.append(["t": "first"], to: &w)
        let good = w.bytes.count
        for tail in [[UInt8](repeating: 0, count: 4096), Array("00000000 {}\n".utf8), Array("zzzzzzzz {\"t\":1}\n".utf8), Array("\n".utf8)] {
            let scan = RecordCodec.scan(w.bytes + tail, maxDepth: 64)
            XCTAssertEqual(scan.records.count, 1)
            XCTAssertEqual(scan.damage?.offset, good)
        }
        // A valid checksum over something that is not a JSON object is damage too.
        var other = JSONWriter()
        RecordCodec.append(.array([1]), to: &other)
        XCTAssertEqual(RecordCodec.scan(w.bytes + other.bytes, maxDepth: 64).damage?.offset, good)
    }
}
